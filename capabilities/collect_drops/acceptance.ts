import type { AcceptanceResult, Observation } from '../../src/index.js';
import type { CollectDropsArgs } from './schema.js';

const total = (inventory: Readonly<Record<string, number>>) => Object.values(inventory).reduce((sum, n) => sum + n, 0);

export function collectDropsAcceptance(pre: Observation, post: Observation, { item }: CollectDropsArgs): AcceptanceResult {
  const before = item === undefined ? total(pre.inventory) : (pre.inventory[item] ?? 0);
  const after = item === undefined ? total(post.inventory) : (post.inventory[item] ?? 0);
  if (after > before) return { ok: true };
  return { ok: false, unmet: [`drops_collected: the inventory holds ${after} ${item ?? 'items in total'}, no more than the ${before} before`] };
}
