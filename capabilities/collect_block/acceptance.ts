import type { Expectation, Observation } from 'verbtree';
import { blocksFor, dropItemsOf, inventoryTotal } from 'verbtree';
import type { CollectBlockArgs } from './schema.js';

/**
 * The pack holds `count` more of the block's drops than at dispatch, all of its kinds together (any log, for #logs).
 */
export function collectBlockExpects(pre: Observation, { block, count }: CollectBlockArgs): Expectation[] {
  const items = dropItemsOf(blocksFor(block) ?? []);
  return [{ kind: 'inventory_total', items, atLeast: inventoryTotal(pre.inventory, items) + count }];
}
