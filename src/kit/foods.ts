import { MAX_FOOD } from '../world/health-rules.js';

export { MAX_FOOD };

/**
 * Hunger points each food restores (minecraft-data 1.21.4 `foods`), kept here because the world does not expose them.
 * consume_food eats by them, and the safety layer asks them whether the bot has anything to eat (`chooseFood`).
 */
export const FOOD_POINTS: Readonly<Record<string, number>> = {
  apple: 4,
  baked_potato: 5,
  beef: 3,
  beetroot: 1,
  beetroot_soup: 6,
  bread: 5,
  carrot: 3,
  chicken: 2,
  chorus_fruit: 4,
  cod: 2,
  cooked_beef: 8,
  cooked_chicken: 6,
  cooked_cod: 5,
  cooked_mutton: 6,
  cooked_porkchop: 8,
  cooked_rabbit: 5,
  cooked_salmon: 6,
  cookie: 2,
  dried_kelp: 1,
  enchanted_golden_apple: 4,
  glow_berries: 2,
  golden_apple: 4,
  golden_carrot: 6,
  honey_bottle: 6,
  melon_slice: 2,
  mushroom_stew: 6,
  mutton: 2,
  poisonous_potato: 2,
  porkchop: 3,
  potato: 1,
  pufferfish: 1,
  pumpkin_pie: 8,
  rabbit: 3,
  rabbit_stew: 10,
  rotten_flesh: 4,
  salmon: 2,
  spider_eye: 2,
  suspicious_stew: 6,
  sweet_berries: 2,
  tropical_fish: 1,
};

/** Edible, but never chosen automatically: they poison, teleport, or are too precious to eat for hunger. */
const NOT_AUTO_CHOSEN: ReadonlySet<string> = new Set([
  'chicken',
  'chorus_fruit',
  'enchanted_golden_apple',
  'golden_apple',
  'poisonous_potato',
  'pufferfish',
  'rotten_flesh',
  'spider_eye',
  'suspicious_stew',
]);

export function isFood(item: string): boolean {
  return Object.hasOwn(FOOD_POINTS, item);
}

/**
 * The held food that fills the most of the hunger deficit without exceeding it; when every food
 * would overfill, the smallest one. Ties go to the alphabetically first name, so the choice is stable.
 */
export function chooseFood(inventory: Readonly<Record<string, number>>, food: number): string | null {
  return foodsByChoice(inventory, food)[0] ?? null;
}

/**
 * Every held food consume_food eats unasked (nothing that poisons), in the order chooseFood picks them: those that fit
 * the deficit, the most filling first, then those that overfill, the smallest first.
 */
export function foodsByChoice(inventory: Readonly<Record<string, number>>, food: number): string[] {
  const deficit = MAX_FOOD - food;
  const held = Object.keys(FOOD_POINTS)
    .filter((name) => !NOT_AUTO_CHOSEN.has(name) && (inventory[name] ?? 0) > 0)
    .map((name) => ({ name, points: FOOD_POINTS[name]! }));
  const fitting = held.filter((f) => f.points <= deficit).sort((a, b) => b.points - a.points);
  const overfilling = held.filter((f) => f.points > deficit).sort((a, b) => a.points - b.points);
  return [...fitting, ...overfilling].map((f) => f.name);
}
