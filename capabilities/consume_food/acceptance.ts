import { chooseFood, type Expectation, type Observation } from 'verbtree';
import type { ConsumeFoodArgs } from './schema.js';

/**
 * One of the food left the pack and hunger rose. The guard refuses a bot that is not hungry, so the food bar
 * can rise by at least one; both facts together tell eating from dropping the item.
 */
export function consumeFoodExpects(pre: Observation, { item }: ConsumeFoodArgs): Expectation[] {
  const eaten = item ?? chooseFood(pre.inventory, pre.food);
  const rose: Expectation = { kind: 'food', atLeast: pre.food + 1 };
  if (eaten === null) return [rose];
  return [{ kind: 'inventory', item: eaten, atMost: Math.max(0, (pre.inventory[eaten] ?? 0) - 1) }, rose];
}
