import type { Expectation, Observation } from 'verbtree';
import type { SmeltItemArgs } from './schema.js';

/** The pack holds at least `count` more of the output than at dispatch. */
export function smeltItemExpects(pre: Observation, { item, count }: SmeltItemArgs): Expectation[] {
  return [{ kind: 'inventory', item, atLeast: (pre.inventory[item] ?? 0) + count }];
}
