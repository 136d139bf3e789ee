import minecraftData from 'minecraft-data';
import { describe, expect, it } from 'vitest';
import { judgeStep, observation } from '../../src/testing/index.js';
import { chooseFood, FOOD_POINTS } from '../../src/kit/foods.js';
import consumeFood from './index.js';
import { match } from '../../test/helpers/matchers.js';

const noWorld = undefined as never;
const guard = (obs: ReturnType<typeof observation>, args: unknown = {}) =>
  consumeFood.guard({ world: noWorld, observation: obs }, consumeFood.inputSchema.parse(args));

describe('consume_food', () => {
  it('keeps its food table in step with minecraft-data 1.21.4', () => {
    const points = Object.fromEntries(minecraftData('1.21.4').foodsArray.map((food) => [food.name, food.foodPoints]));
    for (const [name, value] of Object.entries(FOOD_POINTS)) expect([name, points[name]]).toEqual([name, value]);
  });

  it('chooses the food that fills the deficit without waste, never a risky one', () => {
    const inventory = { cooked_beef: 2, bread: 3, apple: 1, rotten_flesh: 9, golden_apple: 1 };
    expect(chooseFood(inventory, 10)).toBe('cooked_beef'); // deficit 10: the 8-point steak fits
    expect(chooseFood(inventory, 15)).toBe('bread'); // deficit 5: bread fills it exactly
    expect(chooseFood(inventory, 18)).toBe('apple'); // deficit 2: everything overfills, the smallest wastes least
    expect(chooseFood({ rotten_flesh: 9, golden_apple: 1 }, 5)).toBeNull();
  });

  it('refuses when not hungry, without food, or with something inedible', () => {
    expect(guard(observation({ food: 20, inventory: { bread: 1 } }))).toMatchObject({
      ok: false,
      reason: match.stringMatching(/^not hungry/),
    });
    expect(guard(observation({ food: 10 }))).toMatchObject({ ok: false, missing: { predicate: 'has_food' } });
    expect(guard(observation({ food: 10, inventory: { dirt: 1 } }), { item: 'dirt' })).toMatchObject({
      ok: false,
      reason: match.stringMatching(/dirt is not a food/),
    });
    expect(guard(observation({ food: 10 }), { item: 'bread' })).toMatchObject({
      missing: { predicate: 'has_item', detail: { item: 'bread', count: 1 } },
    });
    expect(guard(observation({ food: 10, inventory: { bread: 1 } }))).toEqual({ ok: true });
    expect(guard(observation({ food: 10, inventory: { rotten_flesh: 1 } }), { item: 'rotten_flesh' })).toEqual({
      ok: true,
    });
  });

  it('needs both: the food left the pack and hunger rose (a dropped loaf is not a meal)', () => {
    const args = consumeFood.inputSchema.parse({});
    const pre = observation({ food: 19, inventory: { bread: 2 } });
    expect(judgeStep(consumeFood, pre, observation({ food: 20, inventory: { bread: 1 } }), args)).toEqual({ ok: true });
    expect(judgeStep(consumeFood, pre, observation({ food: 19, inventory: { bread: 1 } }), args)).toEqual({
      ok: false,
      unmet: ['food is at least 20: it is 19'],
    });
    expect(judgeStep(consumeFood, pre, observation({ food: 19, inventory: { bread: 2 } }), args)).toEqual({
      ok: false,
      unmet: ['the pack holds at most 1 bread: it holds 2', 'food is at least 20: it is 19'],
    });
  });
});
