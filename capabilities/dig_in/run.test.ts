import { describe, expect, it } from 'vitest';
import { harness, plan } from '../../test/helpers/executor.js';

const dig = (args: Record<string, unknown> = {}) => ({ stepId: 'dig', type: 'dig_in', args });

describe('dig_in runs end to end on SimWorld', () => {
  it('digs three blocks down, drops into the hole and closes its top: verified; a skeleton and a zombie never hurt it', async () => {
    const h = await harness({ inventory: { cobblestone: 1, wooden_shovel: 1 }, timeOfDay: 18_000 });
    const result = await h.run(plan(dig()));
    expect(result).toMatchObject({ ok: true, steps: [{ outcome: { ok: true }, attempts: 1 }] });
    expect(h.world.position()).toMatchObject({ x: 0.5, y: -3, z: 0.5 });
    expect([-1, -2, -3].map((y) => h.world.blockAt({ x: 0, y, z: 0 })?.name)).toEqual(['dirt', 'air', 'air']);
    // What it dug came into the pack (the grass as dirt), and the cover spent the most expendable block: one of those.
    expect(h.world.inventory()).toEqual({ dirt: 2, cobblestone: 1, wooden_shovel: 1 });
    for (const [name, x] of [
      ['zombie', 4.5],
      ['skeleton', -8.5],
    ] as const)
      h.world.spawnEntity({ name, kind: 'hostile', position: { x, y: 0, z: 0.5 }, ai: true });
    await h.clock.advance(20_000);
    expect(h.world.health()).toBe(20);
  });

  it('fails, not verified, when a hostile is in the hole as its top closes: it is shut in with the bot', async () => {
    // The capability alone: the safety monitor would answer the mob before the dig.
    const h = await harness(
      { inventory: { cobblestone: 1, wooden_shovel: 1 } },
      { policy: { safety: { enabled: false } } },
    );
    // Where a mob that walked in while the hole was open stands: at its bottom, beside the bot (no AI: it stays).
    h.world.spawnEntity({ name: 'skeleton', kind: 'hostile', position: { x: 0.5, y: -3, z: 0.5 }, ai: false });
    const { outcome } = (await h.run(plan(dig()))).steps[0]!;
    expect(outcome).toMatchObject({ ok: false, code: 'effects_unmet' });
    expect(!outcome.ok && outcome.detail).toMatch(/dig_in: a skeleton \(entity \d+\) is in the hole with the bot$/);
  });

  it('refuses ground it cannot dig in time or that opens to the side, and a hole it cannot close', async () => {
    const stone = await harness({ inventory: { dirt: 1 }, ground: { surface: 'stone', filler: 'stone' } });
    expect((await stone.run(plan(dig()))).steps[0]!.outcome).toMatchObject({
      ok: false,
      code: 'guard_failed',
      detail: `digging in takes 22500 ms with the best tool at hand, more than 4500: carry a shovel or a pickaxe`,
    });
    const cave = await harness({ inventory: { dirt: 1 }, blocks: [{ position: { x: 1, y: -3, z: 0 }, name: 'air' }] });
    expect((await cave.run(plan(dig()))).steps[0]!.outcome).toMatchObject({
      detail: 'the hole would open to the side at (1, -3, 0)',
    });
    const empty = await harness({});
    expect((await empty.run(plan(dig({ block: 'cobblestone' })))).steps[0]!.outcome).toMatchObject({
      ok: false,
      code: 'precondition_missing',
      detail: 'closing the hole needs 1 cobblestone, the inventory holds none',
    });
    expect(empty.world.actuatorLog).toEqual([]);
  });

  it('refuses a hole it could not climb out of: sand drops no block to climb on, one plank closes the top', async () => {
    const sand = await harness({ inventory: { oak_planks: 1 }, ground: { surface: 'sand', filler: 'sand' } });
    expect((await sand.run(plan(dig()))).steps[0]!.outcome).toMatchObject({
      ok: false,
      code: 'guard_failed',
      detail:
        'climbing out of the hole would take 2 blocks to stand on, the pack would hold 1 after the cover: carry dirt, cobblestone or planks',
    });
    expect(sand.world.actuatorLog).toEqual([]);
  });

  it('digs in with bare hands and an empty pack: the dirt it digs closes the top (an archer about, no block carried)', async () => {
    const h = await harness({ timeOfDay: 18_000 });
    const result = await h.run(plan(dig()));
    expect(result).toMatchObject({ ok: true, steps: [{ outcome: { ok: true }, attempts: 1 }] });
    expect(h.world.position()).toMatchObject({ x: 0.5, y: -3, z: 0.5 });
    expect(h.world.blockAt({ x: 0, y: -1, z: 0 })?.name).toBe('dirt');
    expect(h.world.inventory()).toEqual({ dirt: 2 });
  });
});
