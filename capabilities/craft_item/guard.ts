import { craftsFor, type GuardContext, type GuardResult } from 'verbtree';
import { firstShortfall, TABLE_REACH } from './requirements.js';
import type { CraftItemArgs } from './schema.js';

export function craftItemGuard({ world, observation }: GuardContext, { item, count }: CraftItemArgs): GuardResult {
  const recipe = world.recipe(item);
  if (!recipe) return { ok: false, reason: `no recipe for ${item}: it cannot be crafted, only gathered` };
  const short = firstShortfall(recipe, craftsFor(recipe, count), observation.inventory);
  if (short) {
    const missingCount = short.need - short.have;
    return {
      ok: false,
      reason: `missing ${missingCount} ${short.item} (have ${short.have}, need ${short.need}) to craft ${count} ${item}`,
      missing: { predicate: 'has_item', detail: { item: short.item, count: missingCount } },
    };
  }
  if (
    recipe.needsTable &&
    world.findBlocks({ names: ['crafting_table'], maxDistance: TABLE_REACH, count: 1 }).length === 0
  ) {
    return {
      ok: false,
      reason: `${item} needs a crafting table and none is within ${TABLE_REACH} blocks`,
      missing: { predicate: 'near_block', detail: { block: 'crafting_table' } },
    };
  }
  return { ok: true };
}
