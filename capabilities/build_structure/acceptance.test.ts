import { judgeStep, dispatchQueryOf } from '../../src/testing/index.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ManualClock } from '../../src/index.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { NAMED_BLUEPRINTS } from './blueprints.js';
import buildStructure from './index.js';
import { plannedBlocks } from './plan.js';
import { match } from '../../test/helpers/matchers.js';

const ORIGIN = { x: 0, y: 0, z: 0 };
const parse = (args: unknown) => buildStructure.inputSchema.parse(args);

function site(inventory: Record<string, number>) {
  const clock = new ManualClock();
  const world = SimWorld.create({ clock, inventory });
  const guard = async (args: unknown) =>
    buildStructure.guard({ world, observation: await world.observe() }, parse(args));
  return { clock, world, guard };
}

describe('build_structure', () => {
  it('defines shelter_3x3 as 25 distinct cells that leave the bot standing room at the origin', () => {
    const cells = NAMED_BLUEPRINTS.shelter_3x3.map(({ dx, dy, dz }) => `${dx},${dy},${dz}`);
    expect(cells).toHaveLength(25);
    expect(new Set(cells).size).toBe(25);
    expect(cells).not.toContain('0,0,0');
    expect(cells).not.toContain('0,1,0');
    expect(cells).toContain('0,2,0');
  });

  it('takes a named or a custom blueprint, rejecting repeated cells, far offsets and empty lists', () => {
    expect(parse({ origin: ORIGIN, blueprint: 'shelter_3x3' }).blueprint).toBe('shelter_3x3');
    const repeated = buildStructure.inputSchema.safeParse({
      origin: ORIGIN,
      blueprint: {
        blocks: [
          { dx: 0, dy: 0, dz: 1, block: 'dirt' },
          { dx: 0, dy: 0, dz: 1, block: 'stone' },
        ],
      },
    });
    expect(repeated.success).toBe(false);
    expect(
      repeated.error?.issues.some((issue) => issue.message.includes('repeats the offset (0,0,1) of blocks[0]')),
    ).toBe(true);
    const invalid = [{ name: 'castle' }, { blocks: [] }, { blocks: [{ dx: 17, dy: 0, dz: 0, block: 'dirt' }] }];
    for (const blueprint of invalid)
      expect(buildStructure.inputSchema.safeParse({ origin: ORIGIN, blueprint }).success).toBe(false);
    expect(
      JSON.stringify(z.toJSONSchema(buildStructure.inputSchema, { io: 'input', unrepresentable: 'any' })),
    ).toContain('shelter_3x3');
  });

  it('observes every blueprint cell, bottom layer first, with an optional material override', () => {
    const args = parse({ origin: { x: 10, y: 5, z: -3 }, blueprint: 'shelter_3x3', material: 'cobblestone' });
    const planned = plannedBlocks(args);
    expect(buildStructure.observes!(args)).toHaveLength(25);
    expect(planned[0]).toEqual({ position: { x: 9, y: 5, z: -4 }, block: 'cobblestone' });
    expect(planned.map((b) => b.position.y)).toEqual([...planned.map((b) => b.position.y)].sort((a, b) => a - b));
  });

  it('requires only the blocks not yet in place, and names occupied cells', async () => {
    expect(await site({ dirt: 20 }).guard({ origin: ORIGIN, blueprint: 'shelter_3x3' })).toEqual({
      ok: false,
      reason: 'the structure needs 25 more dirt, the inventory holds 20',
      missing: { predicate: 'has_item', detail: { item: 'dirt', count: 5 } },
    });
    const halfBuilt = site({ dirt: 20 });
    halfBuilt.world.fill({ x: -1, y: 0, z: -1 }, { x: 1, y: 0, z: -1 }, 'dirt');
    halfBuilt.world.fill({ x: -1, y: 1, z: -1 }, { x: 1, y: 1, z: -1 }, 'dirt');
    expect(await halfBuilt.guard({ origin: ORIGIN, blueprint: 'shelter_3x3' })).toEqual({ ok: true });
    const blocked = site({ dirt: 25 });
    blocked.world.setBlock({ x: 1, y: 1, z: 1 }, 'stone');
    expect(await blocked.guard({ origin: ORIGIN, blueprint: 'shelter_3x3' })).toMatchObject({
      ok: false,
      reason: match.stringMatching(/1 blueprint cell\(s\) are occupied \(stone at \(1, 1, 1\)\)/),
    });
  });

  it('accepts a shelter really built block by block in a SimWorld, and lists the gaps before', async () => {
    const { clock, world, guard } = site({ cobblestone: 25 });
    const args = parse({ origin: ORIGIN, blueprint: 'shelter_3x3', material: 'cobblestone' });
    expect(await guard(args)).toEqual({ ok: true });
    const query = dispatchQueryOf(buildStructure, args);
    const pre = await world.observe(query);
    expect(judgeStep(buildStructure, pre, pre, args)).toEqual({
      ok: false,
      unmet: match.arrayContaining([
        'the block at (-1, 0, -1) is cobblestone: it holds air',
        'the block at (1, 2, 1) is cobblestone: it holds air',
      ]),
    });
    for (const { position, block } of plannedBlocks(args)) {
      const placing = world.place(position, block);
      await clock.advance(100);
      await placing;
    }
    expect(judgeStep(buildStructure, pre, await world.observe(query), args)).toEqual({ ok: true });
    expect(world.inventory().cobblestone ?? 0).toBe(0);
  });
});
