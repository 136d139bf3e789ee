import type { GuardContext, GuardResult } from '../../src/index.js';
import { craftsNeeded, missingIngredient, TABLE_REACH } from './requirements.js';
import type { CraftItemArgs } from './schema.js';

export function craftItemGuard({ world, observation }: GuardContext, { item, count }: CraftItemArgs): GuardResult {
  const recipe = world.recipe(item);
  if (!recipe) return { ok: false, reason: `no recipe for ${item}: it cannot be crafted, only gathered` };
  const times = craftsNeeded(recipe, count);
  const lacking = missingIngredient(recipe, times, observation.inventory);
  if (lacking) {
    const { have, need, ...missing } = lacking;
    return {
      ok: false,
      reason: `missing ${need - have} ${String(missing.detail.item)} (have ${have}, need ${need}) to craft ${count} ${item}`,
      missing,
    };
  }
  if (recipe.needsTable && world.findBlocks({ names: ['crafting_table'], maxDistance: TABLE_REACH, count: 1 }).length === 0) {
    return {
      ok: false,
      reason: `${item} needs a crafting table and none is within ${TABLE_REACH} blocks`,
      missing: { predicate: 'near_block', detail: { block: 'crafting_table' } },
    };
  }
  return { ok: true };
}
