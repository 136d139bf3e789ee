import { describe, expect, it } from 'vitest';
import { blockKey, ManualClock } from '../../src/index.js';
import { dispatchQueryOf, judgeStep, observation } from '../../src/testing/index.js';
import { SimWorld } from '../../src/world/sim/index.js';
import digBlock from './index.js';
import navigate from '../navigate/index.js';
import { match } from '../../test/helpers/matchers.js';

const LOG = { x: 2, y: 0, z: 0 };

function forestEdge() {
  const clock = new ManualClock();
  const world = SimWorld.create({
    clock,
    blocks: [
      { position: LOG, name: 'oak_log' },
      { position: { x: 3, y: 0, z: 0 }, name: 'bedrock' },
    ],
  });
  return { clock, world };
}

describe('dig_block', () => {
  it('takes a block position and an optional expected block name', () => {
    expect(digBlock.inputSchema.parse({ position: LOG })).toEqual({ position: LOG });
    expect(digBlock.inputSchema.safeParse({ position: LOG, block: 'minecraft:oak_log' }).success).toBe(false);
    expect(digBlock.inputSchema.safeParse({ position: { x: 0.5, y: 0, z: 0 } }).success).toBe(false);
    expect(digBlock.observes?.(digBlock.inputSchema.parse({ position: LOG }))).toEqual([LOG]);
  });

  it('guards on what the world shows at the position', async () => {
    const { world } = forestEdge();
    const ctx = { world, observation: await world.observe() };
    const guard = (args: unknown) => digBlock.guard(ctx, digBlock.inputSchema.parse(args));
    expect(guard({ position: LOG, block: 'oak_log' })).toEqual({ ok: true });
    expect(guard({ position: LOG, block: 'birch_log' })).toMatchObject({
      ok: false,
      reason: match.stringMatching(/expected birch_log at \(2, 0, 0\) but the world shows oak_log/),
    });
    expect(guard({ position: { x: 2, y: 1, z: 0 } })).toMatchObject({
      ok: false,
      reason: match.stringMatching(/already air/),
    });
    expect(guard({ position: { x: 3, y: 0, z: 0 } })).toMatchObject({
      ok: false,
      reason: match.stringMatching(/bedrock .* is unbreakable/),
    });
  });

  it('accepts the server-side result of a real dig and rejects a block still standing', async () => {
    const { clock, world } = forestEdge();
    const args = digBlock.inputSchema.parse({ position: LOG, block: 'oak_log' });
    const query = dispatchQueryOf(digBlock, args);
    const pre = await world.observe(query);
    expect(judgeStep(digBlock, pre, await world.observe(query), args)).toEqual({
      ok: false,
      unmet: ['the block at (2, 0, 0) is empty (air): it holds oak_log'],
    });
    const dug = world.dig(LOG);
    await clock.advance(10_000);
    await dug;
    const post = await world.observe(query);
    expect(post.blocks[blockKey(LOG)]).toBe('air');
    expect(judgeStep(digBlock, pre, post, args)).toEqual({ ok: true });
  });

  it('refuses (guard) a cell that is already empty, and counts cave_air as removed', () => {
    const args = digBlock.inputSchema.parse({ position: LOG });
    const key = blockKey(LOG);
    const air = observation({ blocks: { [key]: 'air' } });
    const world = { blockAt: () => ({ name: 'air', position: LOG, diggable: false }) } as never;
    expect(digBlock.guard({ world, observation: air }, args)).toMatchObject({
      ok: false,
      reason: match.stringMatching(/there is no block to dig/),
    });
    expect(
      judgeStep(
        digBlock,
        observation({ blocks: { [key]: 'stone' } }),
        observation({ blocks: { [key]: 'cave_air' } }),
        args,
      ),
    ).toEqual({ ok: true });
  });

  it('turns an unloaded position into a navigate sub-goal the navigate schema accepts', () => {
    const args = digBlock.inputSchema.parse({ position: { x: 400, y: 12, z: -9 } });
    const steps = digBlock.subgoals!(
      { predicate: 'near_position', detail: { x: 400, y: 12, z: -9 } },
      args,
      undefined as never,
    );
    expect(steps).toHaveLength(1);
    expect(steps![0]).toMatchObject({ type: 'navigate' });
    expect(navigate.inputSchema.parse(steps![0]!.args)).toEqual({
      target: { kind: 'near', x: 400, y: 12, z: -9, range: 4 },
    });
    expect(digBlock.subgoals!({ predicate: 'has_item', detail: {} }, args, undefined as never)).toBeNull();
  });
});
