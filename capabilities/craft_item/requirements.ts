import type { Recipe } from '../../src/index.js';

/** How close a crafting table must be for the bot to use it without moving. */
export const TABLE_REACH = 4;

export function craftsNeeded(recipe: Recipe, count: number): number {
  return Math.ceil(count / recipe.yields);
}

export interface Shortfall {
  item: string;
  have: number;
  need: number;
}

/** The first ingredient the inventory holds too little of for `times` crafts; null when all are there. */
export function firstShortfall(recipe: Recipe, times: number, inventory: Readonly<Record<string, number>>): Shortfall | null {
  for (const [item, perCraft] of Object.entries(recipe.ingredients)) {
    const need = perCraft * times;
    const have = inventory[item] ?? 0;
    if (have < need) return { item, have, need };
  }
  return null;
}
