import type { AcceptanceResult, Observation } from '../../src/index.js';
import { chooseFood } from './foods.js';
import type { ConsumeFoodArgs } from './schema.js';

/** Eaten when hunger rose, or when one item of the food left the inventory (hunger may already have been capped). */
export function consumeFoodAcceptance(pre: Observation, post: Observation, { item }: ConsumeFoodArgs): AcceptanceResult {
  if (post.food > pre.food) return { ok: true };
  const eaten = item ?? chooseFood(pre.inventory, pre.food);
  if (eaten !== null && (post.inventory[eaten] ?? 0) < (pre.inventory[eaten] ?? 0)) return { ok: true };
  return {
    ok: false,
    unmet: [`food_restored: food stayed at ${post.food} (was ${pre.food}) and no ${eaten ?? 'food'} left the inventory`],
  };
}
