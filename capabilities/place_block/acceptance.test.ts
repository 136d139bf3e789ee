import { describe, expect, it } from 'vitest';
import { blockKey, ManualClock } from '../../src/index.js';
import { dispatchQueryOf, judgeStep, observation } from '../../src/testing/index.js';
import { SimWorld } from '../../src/world/sim/index.js';
import digBlock from '../dig_block/index.js';
import placeBlock from './index.js';
import { match } from '../../test/helpers/matchers.js';

const BESIDE = { x: 1, y: 0, z: 0 };

function setting(inventory: Record<string, number> = { cobblestone: 4 }) {
  const clock = new ManualClock();
  const world = SimWorld.create({ clock, inventory, blocks: [{ position: { x: -2, y: 0, z: 0 }, name: 'stone' }] });
  const guard = async (args: unknown) =>
    placeBlock.guard({ world, observation: await world.observe() }, placeBlock.inputSchema.parse(args));
  return { clock, world, guard };
}

describe('place_block', () => {
  it('requires a position and an item name', () => {
    expect(placeBlock.inputSchema.safeParse({ position: BESIDE }).success).toBe(false);
    expect(placeBlock.inputSchema.safeParse({ position: BESIDE, item: 'Cobblestone' }).success).toBe(false);
    expect(placeBlock.observes?.(placeBlock.inputSchema.parse({ position: BESIDE, item: 'dirt' }))).toEqual([BESIDE]);
  });

  it('reports a missing item as has_item and accepts a supported empty cell', async () => {
    const { guard } = setting();
    expect(await guard({ position: BESIDE, item: 'cobblestone' })).toEqual({ ok: true });
    expect(await guard({ position: BESIDE, item: 'oak_planks' })).toEqual({
      ok: false,
      reason: 'no oak_planks in the inventory to place',
      missing: { predicate: 'has_item', detail: { item: 'oak_planks', count: 1 } },
    });
  });

  it("refuses the bot's own cells, occupied cells and cells with nothing to place against", async () => {
    const { guard } = setting();
    for (const y of [0, 1]) {
      expect(await guard({ position: { x: 0, y, z: 0 }, item: 'cobblestone' })).toMatchObject({
        ok: false,
        reason: match.stringMatching(/bot's own space.*move first/),
      });
    }
    expect(await guard({ position: { x: -2, y: 0, z: 0 }, item: 'cobblestone' })).toMatchObject({
      ok: false,
      reason: match.stringMatching(/already holds stone/),
      missing: { predicate: 'cell_empty', detail: { x: -2, y: 0, z: 0, block: 'stone' } },
    });
    expect(await guard({ position: { x: 1, y: 3, z: 0 }, item: 'cobblestone' })).toMatchObject({
      ok: false,
      reason: match.stringMatching(/nothing to place against/),
    });
  });

  it('clears an occupied cell with a dig_block sub-goal that dig_block accepts', async () => {
    const { world, guard } = setting();
    const args = placeBlock.inputSchema.parse({ position: { x: -2, y: 0, z: 0 }, item: 'cobblestone' });
    const verdict = await guard(args);
    if (verdict.ok || !verdict.missing) throw new Error('expected a missing precondition');
    const steps = placeBlock.subgoals!(verdict.missing, args, { world, observation: await world.observe() });
    expect(steps).toEqual([
      { stepId: 'subgoal-clear@-2,0,0', type: 'dig_block', args: { position: { x: -2, y: 0, z: 0 } } },
    ]);
    expect(digBlock.inputSchema.safeParse(steps![0]!.args).success).toBe(true);
    expect(
      placeBlock.subgoals!({ predicate: 'has_item', detail: { item: 'cobblestone', count: 1 } }, args, {
        world,
        observation: await world.observe(),
      }),
    ).toBeNull();
  });

  it('accepts a block the world really placed, and names what is there otherwise', async () => {
    const { clock, world } = setting();
    const args = placeBlock.inputSchema.parse({ position: BESIDE, item: 'cobblestone' });
    const query = dispatchQueryOf(placeBlock, args);
    const pre = await world.observe(query);
    expect(judgeStep(placeBlock, pre, pre, args)).toEqual({
      ok: false,
      unmet: ['the block at (1, 0, 0) is cobblestone: it holds air'],
    });
    const placed = world.place(BESIDE, 'cobblestone');
    await clock.advance(1_000);
    await placed;
    expect(judgeStep(placeBlock, pre, await world.observe(query), args)).toEqual({ ok: true });
    expect(judgeStep(placeBlock, pre, observation({ blocks: { [blockKey(BESIDE)]: 'dirt' } }), args).ok).toBe(false);
  });
});
