import { chooseFood, type GuardContext, type GuardResult, isFood, MAX_FOOD } from 'verbtree';
import type { ConsumeFoodArgs } from './schema.js';

export function consumeFoodGuard({ observation }: GuardContext, { item }: ConsumeFoodArgs): GuardResult {
  if (observation.food >= MAX_FOOD)
    return {
      ok: false,
      reason: `not hungry (food ${observation.food}/${MAX_FOOD}); the game refuses to eat at full hunger`,
    };
  if (item !== undefined) {
    if (!isFood(item))
      return { ok: false, reason: `${item} is not a food; name an edible item such as bread or cooked_beef` };
    if ((observation.inventory[item] ?? 0) < 1) {
      return {
        ok: false,
        reason: `no ${item} in the inventory to eat`,
        missing: { predicate: 'has_item', detail: { item, count: 1 } },
      };
    }
    return { ok: true };
  }
  if (chooseFood(observation.inventory, observation.food) === null) {
    return {
      ok: false,
      reason: 'no safe food in the inventory',
      missing: { predicate: 'has_food', detail: { count: 1 } },
    };
  }
  return { ok: true };
}
