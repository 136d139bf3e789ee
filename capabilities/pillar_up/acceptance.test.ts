import { describe, expect, it } from 'vitest';
import { chooseBuildingBlock, ManualClock } from '../../src/index.js';
import { judgeStep, observation } from '../../src/testing/index.js';
import { JUMP_RISE_MS, SimWorld } from '../../src/world/sim/index.js';
import pillarUp from './index.js';

function column(inventory: Record<string, number>) {
  const clock = new ManualClock();
  const world = SimWorld.create({ clock, inventory });
  const guard = async (args: unknown) =>
    pillarUp.guard({ world, observation: await world.observe() }, pillarUp.inputSchema.parse(args));
  return { clock, world, guard };
}

describe('pillar_up', () => {
  it('defaults to 3 blocks high, bounded to 1..16 whole blocks', () => {
    expect(pillarUp.inputSchema.parse({})).toEqual({ height: 3 });
    for (const height of [0, 17, 2.5]) expect(pillarUp.inputSchema.safeParse({ height }).success).toBe(false);
  });

  it('picks the most expendable block held in quantity, else the one held most', () => {
    expect(chooseBuildingBlock({ oak_planks: 9, cobblestone: 5, dirt: 2 }, 3)).toBe('cobblestone');
    expect(chooseBuildingBlock({ oak_planks: 2, dirt: 1, diamond_block: 64 }, 3)).toBe('oak_planks');
    expect(chooseBuildingBlock({ diamond_block: 64 }, 3)).toBeNull();
  });

  it('reports the block shortfall as has_item', async () => {
    expect(await column({ cobblestone: 1 }).guard({})).toEqual({
      ok: false,
      reason: 'a pillar of 3 needs 3 cobblestone, the inventory holds 1',
      missing: { predicate: 'has_item', detail: { item: 'cobblestone', count: 2 } },
    });
    expect(await column({}).guard({ block: 'netherrack', height: 2 })).toMatchObject({
      missing: { detail: { item: 'netherrack', count: 2 } },
    });
    expect(await column({ dirt: 3 }).guard({})).toEqual({ ok: true });
  });

  it('refuses when a ceiling leaves too little headroom', async () => {
    const { world, guard } = column({ dirt: 5 });
    world.setBlock({ x: 0, y: 4, z: 0 }, 'stone');
    expect(await guard({ height: 3 })).toMatchObject({
      ok: false,
      reason: 'stone at (0, 4, 0) leaves room to rise only 2 of 3 blocks',
    });
    expect(await guard({ height: 2 })).toEqual({ ok: true });
  });

  it('accepts the rise of a real jump-and-place pillar in a SimWorld', async () => {
    const { clock, world } = column({ dirt: 2 });
    const args = pillarUp.inputSchema.parse({ height: 2, block: 'dirt' });
    const pre = await world.observe();
    for (let y = 0; y < args.height; y++) {
      const jumping = world.move('jump', 600);
      await clock.advance(JUMP_RISE_MS);
      const placing = world.place({ x: 0, y, z: 0 }, 'dirt');
      await clock.advance(1_000);
      await Promise.all([jumping, placing]);
    }
    const post = await world.observe();
    expect(post.position.y).toBe(2);
    expect(judgeStep(pillarUp, pre, post, args)).toEqual({ ok: true });
    expect(judgeStep(pillarUp, pre, post, pillarUp.inputSchema.parse({ height: 3 }))).toEqual({
      ok: false,
      unmet: ["the bot's feet are at y ≥ 2.5: they are at y 2.0"],
    });
  });

  it('allows half a block of settling', () => {
    const args = pillarUp.inputSchema.parse({ height: 1 });
    expect(judgeStep(pillarUp, observation(), observation({ position: { x: 0.5, y: 0.5, z: 0.5 } }), args)).toEqual({
      ok: true,
    });
    expect(judgeStep(pillarUp, observation(), observation({ position: { x: 0.5, y: 0.4, z: 0.5 } }), args).ok).toBe(
      false,
    );
  });
});
