import minecraftData from 'minecraft-data';
import type { Recipe } from '../contracts/world.js';

/** The game version both worlds speak; the embedded server runs the same one. */
export const MINECRAFT_VERSION = '1.21.4';

/**
 * Ingredients a bot is likely to have, most common first. minecraft-data lists a
 * recipe once per tag member (twelve stick recipes, one per plank kind), so
 * choosing among them by this order is how "any planks" becomes oak_planks.
 */
const COMMON_INGREDIENTS = [
  'oak_planks',
  'oak_log',
  'stick',
  'cobblestone',
  'coal',
  'iron_ingot',
  'string',
  'wheat',
  'gold_ingot',
  'diamond',
  'redstone',
  'leather',
  'paper',
  'feather',
  'flint',
  'sand',
  'glass',
];
const UNCOMMON_PENALTY = 100;

type RawItem = number | null | { id: number | null } | readonly (number | null)[];
interface RawRecipe {
  result: RawItem & { count?: number };
  inShape?: readonly (readonly RawItem[])[];
  ingredients?: readonly RawItem[];
}

const data = minecraftData(MINECRAFT_VERSION);
const cache = new Map<string, Recipe[]>();

function itemId(raw: RawItem): number | null {
  if (raw === null || typeof raw === 'number') return raw;
  if (Array.isArray(raw)) return (raw[0] as number | null | undefined) ?? null;
  return (raw as { id: number | null }).id;
}

function itemName(id: number): string {
  const item = data.items[id];
  if (!item) throw new Error(`minecraft-data ${MINECRAFT_VERSION} has no item with id ${id}`);
  return item.name;
}

function toRecipe(item: string, raw: RawRecipe): Recipe {
  const cells = raw.inShape ? raw.inShape.flat() : (raw.ingredients ?? []);
  const ingredients: Record<string, number> = {};
  for (const cell of cells) {
    const id = itemId(cell);
    if (id === null) continue;
    const name = itemName(id);
    ingredients[name] = (ingredients[name] ?? 0) + 1;
  }
  const fitsTwoByTwo = raw.inShape
    ? raw.inShape.length <= 2 && raw.inShape.every((row) => row.length <= 2)
    : cells.length <= 4;
  const yields =
    typeof raw.result === 'object' && raw.result !== null && 'count' in raw.result ? (raw.result.count ?? 1) : 1;
  return { item, yields, ingredients, needsTable: !fitsTwoByTwo };
}

function rarity(recipe: Recipe): number {
  let score = 0;
  for (const name of Object.keys(recipe.ingredients)) {
    const rank = COMMON_INGREDIENTS.indexOf(name);
    score += rank === -1 ? UNCOMMON_PENALTY : rank;
  }
  return score;
}

/** Every crafting recipe for `item`, one per distinct set of ingredients, the most common ingredients first. */
export function recipeVariants(item: string): Recipe[] {
  const cached = cache.get(item);
  if (cached !== undefined) return cached;
  const id = data.itemsByName[item]?.id;
  const raws = id === undefined ? undefined : (data.recipes[id] as RawRecipe[] | undefined);
  const variants = new Map<string, Recipe>();
  for (const raw of Array.isArray(raws) ? raws : []) {
    const recipe = toRecipe(item, raw);
    const key = JSON.stringify(Object.entries(recipe.ingredients).sort());
    if (!variants.has(key)) variants.set(key, recipe);
  }
  // A stable sort: ties keep the order minecraft-data lists them in, so the choice is the same on every run.
  const sorted = [...variants.values()].sort((a, b) => rarity(a) - rarity(b));
  cache.set(item, sorted);
  return sorted;
}

/**
 * The crafting recipe a bot should use for `item`, with tag alternatives resolved to the most common ingredients;
 * null when the item cannot be crafted. Given the pack, the most common variant it holds the ingredients of for one
 * craft comes first (as the server's own recipe book answers: a crafting table from birch planks when the pack holds
 * no oak), else the most common.
 */
export function recipeFor(item: string, pack?: Readonly<Record<string, number>>): Recipe | null {
  const variants = recipeVariants(item);
  const held = pack
    ? variants.find((recipe) => Object.keys(missingIngredients(recipe, 1, pack)).length === 0)
    : undefined;
  return held ?? variants[0] ?? null;
}

/** How many crafts produce at least `count` items. */
export function craftsFor(recipe: Recipe, count: number): number {
  return Math.ceil(count / recipe.yields);
}

/** Ingredients still needed to craft `recipe` `times` times from `inventory`; empty when nothing is missing. */
export function missingIngredients(
  recipe: Recipe,
  times: number,
  inventory: Readonly<Record<string, number>>,
): Record<string, number> {
  const missing: Record<string, number> = {};
  for (const [name, perCraft] of Object.entries(recipe.ingredients)) {
    const short = perCraft * times - (inventory[name] ?? 0);
    if (short > 0) missing[name] = short;
  }
  return missing;
}
