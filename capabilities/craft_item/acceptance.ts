import type { Expectation, Observation } from 'verbtree';
import type { CraftItemArgs } from './schema.js';

/** The pack holds at least `count` more of the item than at dispatch. */
export function craftItemExpects(pre: Observation, { item, count }: CraftItemArgs): Expectation[] {
  return [{ kind: 'inventory', item, atLeast: (pre.inventory[item] ?? 0) + count }];
}
