import { describe, expect, it } from 'vitest';
import { judgeStep, observation } from '../../src/testing/index.js';
import equip from './index.js';
import { match } from '../../test/helpers/matchers.js';

const noWorld = undefined as never;
const guard = (obs: ReturnType<typeof observation>, args: unknown) =>
  equip.guard({ world: noWorld, observation: obs }, equip.inputSchema.parse(args));

describe('equip', () => {
  it('defaults to the main hand and rejects unknown destinations', () => {
    expect(equip.inputSchema.parse({ item: 'stone_axe' })).toEqual({ item: 'stone_axe', destination: 'hand' });
    expect(equip.inputSchema.safeParse({ item: 'stone_axe', destination: 'belt' }).success).toBe(false);
  });

  it('reports a missing item as a has_item precondition, but accepts an item already in hand', () => {
    expect(guard(observation(), { item: 'stone_axe' })).toEqual({
      ok: false,
      reason: 'no stone_axe in the inventory to equip',
      missing: { predicate: 'has_item', detail: { item: 'stone_axe', count: 1 } },
    });
    expect(guard(observation({ heldItem: 'stone_axe' }), { item: 'stone_axe' })).toEqual({ ok: true });
    expect(guard(observation({ inventory: { stone_axe: 1 } }), { item: 'stone_axe' })).toEqual({ ok: true });
  });

  it('refuses armor slots the item does not fit', () => {
    const held = observation({ inventory: { dirt: 5, iron_helmet: 1, carved_pumpkin: 1 } });
    expect(guard(held, { item: 'dirt', destination: 'head' })).toMatchObject({
      ok: false,
      reason: match.stringMatching(/cannot be worn on the head/),
    });
    expect(guard(held, { item: 'iron_helmet', destination: 'feet' }).ok).toBe(false);
    expect(guard(held, { item: 'iron_helmet', destination: 'head' })).toEqual({ ok: true });
    expect(guard(held, { item: 'carved_pumpkin', destination: 'head' })).toEqual({ ok: true });
    expect(guard(held, { item: 'dirt', destination: 'off-hand' })).toEqual({ ok: true });
  });

  it('accepts the hand only when it holds the item', () => {
    const args = equip.inputSchema.parse({ item: 'stone_axe' });
    const pre = observation({ inventory: { stone_axe: 1 } });
    expect(judgeStep(equip, pre, observation({ inventory: { stone_axe: 1 }, heldItem: 'stone_axe' }), args)).toEqual({
      ok: true,
    });
    expect(judgeStep(equip, pre, observation({ inventory: { stone_axe: 1 }, heldItem: 'dirt' }), args)).toEqual({
      ok: false,
      unmet: ['the main hand holds stone_axe: it holds dirt'],
    });
  });

  it('accepts an armor slot when the item left the main inventory', () => {
    const args = equip.inputSchema.parse({ item: 'iron_boots', destination: 'feet' });
    const pre = observation({ inventory: { iron_boots: 1 } });
    expect(judgeStep(equip, pre, observation({ inventory: {} }), args)).toEqual({ ok: true });
    const unmet = judgeStep(equip, pre, observation({ inventory: { iron_boots: 1 } }), args);
    expect(unmet).toMatchObject({ ok: false, unmet: ['the pack holds at most 0 iron_boots: it holds 1'] });
  });
});
