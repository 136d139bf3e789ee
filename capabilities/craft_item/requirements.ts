import { missingIngredients, type Recipe } from 'verbtree';

/** How close a crafting table must be for the bot to use it without moving. */
export const TABLE_REACH = 4;

export interface Shortfall {
  item: string;
  have: number;
  need: number;
}

/** The first ingredient the inventory holds too little of for `times` crafts; null when all are there. */
export function firstShortfall(
  recipe: Recipe,
  times: number,
  inventory: Readonly<Record<string, number>>,
): Shortfall | null {
  const [first] = Object.entries(missingIngredients(recipe, times, inventory));
  if (!first) return null;
  const [item, short] = first;
  const have = inventory[item] ?? 0;
  return { item, have, need: have + short };
}
