import type { AcceptanceResult, Observation } from '../../src/index.js';
import type { CraftItemArgs } from './schema.js';

export function craftItemAcceptance(pre: Observation, post: Observation, { item, count }: CraftItemArgs): AcceptanceResult {
  const gained = (post.inventory[item] ?? 0) - (pre.inventory[item] ?? 0);
  if (gained >= count) return { ok: true };
  return { ok: false, unmet: [`item_crafted: the inventory gained ${gained} ${item}, expected at least ${count}`] };
}
