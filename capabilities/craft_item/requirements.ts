import type { MissingPrecondition, Recipe } from '../../src/index.js';

/** How close a crafting table must be for the bot to use it without moving. */
export const TABLE_REACH = 4;

export function craftsNeeded(recipe: Recipe, count: number): number {
  return Math.ceil(count / recipe.yields);
}

/** The first ingredient the inventory lacks for `times` crafts, as a `has_item` precondition with the shortfall. */
export function missingIngredient(
  recipe: Recipe,
  times: number,
  inventory: Readonly<Record<string, number>>,
): (MissingPrecondition & { have: number; need: number }) | null {
  for (const [item, perCraft] of Object.entries(recipe.ingredients)) {
    const need = perCraft * times;
    const have = inventory[item] ?? 0;
    if (have < need) return { predicate: 'has_item', detail: { item, count: need - have }, have, need };
  }
  return null;
}
