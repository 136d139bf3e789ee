import { describe, expect, it } from 'vitest';
import { harness, plan } from '../../test/helpers/executor.js';
import { match } from '../../test/helpers/matchers.js';

const store = (item: string, count: number, chest?: { x: number; y: number; z: number }) => ({
  stepId: `store-${item}`,
  type: 'store_items',
  args: { item, count, ...(chest ? { chest } : {}) },
});
const take = (item: string, count: number, chest?: { x: number; y: number; z: number }) => ({
  stepId: `take-${item}`,
  type: 'take_items',
  args: { item, count, ...(chest ? { chest } : {}) },
});

describe('store_items and take_items run end to end on SimWorld', () => {
  it('stores in the nearest chest (walking up to it), then takes some back: the chest and the pack agree with the world', async () => {
    const far = { x: 9, y: 0, z: 0 };
    const near = { x: 6, y: 0, z: 3 };
    const h = await harness({
      inventory: { cobblestone: 20 },
      blocks: [
        { position: far, name: 'chest' },
        { position: near, name: 'chest' },
      ],
    });
    const result = await h.run(plan(store('cobblestone', 12), take('cobblestone', 5)));
    expect(result.ok, JSON.stringify(result.steps.map((s) => s.outcome))).toBe(true);
    expect(h.world.inventory()).toEqual({ cobblestone: 13 });
    const seen = await h.world.observe({ containers: [near, far] });
    expect(seen.containers).toEqual({ '6,0,3': { cobblestone: 7 }, '9,0,0': {} });
    expect(h.world.actuatorLog.map((e) => e.command)).toEqual(['goto', 'deposit', 'withdraw']);
  });

  it('uses the chest it names, not the nearest', async () => {
    const named = { x: 12, y: 0, z: -4 };
    const h = await harness({
      inventory: { oak_log: 3 },
      blocks: [
        { position: { x: 2, y: 0, z: 0 }, name: 'chest' },
        { position: named, name: 'barrel' },
      ],
    });
    const result = await h.run(plan(store('oak_log', 3, named)));
    expect(result.ok).toBe(true);
    expect((await h.world.observe({ containers: [named] })).containers).toEqual({ '12,0,-4': { oak_log: 3 } });
  });

  it('fails with the reason and nothing moved: no chest in sight, not a chest, too few in the pack, too few in the chest', async () => {
    const chest = { x: 2, y: 0, z: 0 };
    const none = await (await harness({ inventory: { dirt: 4 } })).run(plan(store('dirt', 1)));
    expect(none.steps[0]!.outcome).toMatchObject({
      ok: false,
      code: 'precondition_missing',
      detail: match.stringContaining('no chest in the open within 32 blocks'),
    });
    const h = await harness({
      inventory: { dirt: 4 },
      blocks: [
        { position: chest, name: 'chest' },
        { position: { x: 3, y: 0, z: 0 }, name: 'stone' },
      ],
    });
    const notChest = await h.run(plan(store('dirt', 1, { x: 3, y: 0, z: 0 })));
    expect(notChest.steps[0]!.outcome).toMatchObject({
      ok: false,
      code: 'guard_failed',
      detail: match.stringContaining('3,0,0 is no chest'),
    });
    const tooMany = await h.run(plan(store('dirt', 9, chest)));
    expect(tooMany.steps[0]!.outcome).toMatchObject({
      ok: false,
      code: 'precondition_missing',
      detail: match.stringContaining('the pack holds 4 dirt, 9 to store'),
    });
    const empty = await h.run(plan(take('dirt', 1, chest)));
    expect(empty.steps[0]!.outcome).toMatchObject({
      ok: false,
      code: 'precondition_missing',
      detail: match.stringContaining('holds 0 dirt, 1 to take'),
    });
    expect(h.world.inventory()).toEqual({ dirt: 4 });
    expect(h.world.actuatorLog).toEqual([]);
  });
});
