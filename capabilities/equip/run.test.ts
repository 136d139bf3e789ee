import { describe, expect, it } from 'vitest';
import { harness, plan } from '../../test/helpers/executor.js';

const equip = (item: string, destination?: string) => ({
  stepId: `equip-${item}`,
  type: 'equip',
  args: { item, ...(destination ? { destination } : {}) },
});

describe('equip runs end to end on SimWorld', () => {
  it('puts the item in the main hand, verified', async () => {
    const h = await harness({ inventory: { stone_axe: 1, dirt: 4 }, heldItem: 'dirt' });
    const result = await h.run(plan(equip('stone_axe')));
    expect(result).toMatchObject({ ok: true, steps: [{ outcome: { ok: true }, attempts: 1 }] });
    expect(h.world.heldItem()).toBe('stone_axe');
    expect(h.world.actuatorLog.map((entry) => entry.command)).toEqual(['equip']);
  });

  it('puts armour on, verified by the item leaving the main inventory', async () => {
    const h = await harness({ inventory: { iron_helmet: 1 } });
    const result = await h.run(plan(equip('iron_helmet', 'head')));
    expect(result).toMatchObject({ ok: true });
    expect(h.world.equipped('head')).toBe('iron_helmet');
    expect(h.world.inventory().iron_helmet).toBeUndefined();
  });

  it('fails with precondition_missing when the item is not in the inventory', async () => {
    const h = await harness({ inventory: { dirt: 4 } });
    const result = await h.run(plan(equip('stone_axe')));
    expect(result.steps[0]!.outcome).toMatchObject({ ok: false, code: 'precondition_missing' });
    expect(h.world.actuatorLog).toEqual([]);
  });

  it('refuses an item that does not fit the slot', async () => {
    const h = await harness({ inventory: { dirt: 4 } });
    const result = await h.run(plan(equip('dirt', 'head')));
    expect(result.steps[0]!.outcome).toMatchObject({ ok: false, code: 'guard_failed' });
  });
});
