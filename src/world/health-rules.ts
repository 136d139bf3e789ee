/*
 * Natural regeneration, as vanilla rules it (FoodData.tick, 1.21): a survival player whose food is at 18 or more and
 * whose health is below 20 heals a point every 80 ticks (4 s), each point paid for with 6 exhaustion (every 4
 * exhaustion costs a point of saturation, then of food). Below 18 food it never heals but by eating. Both worlds heal
 * by this module, the embedded server's health plugin on its ticks and SimWorld on its clock (sim/regeneration.ts);
 * the safety layer reads it to judge whether a shelter heals the bot.
 */

/** The least food at which a player heals by itself. */
export const REGEN_MIN_FOOD = 18;
/** Ticks between two points healed. */
export const REGEN_INTERVAL_TICKS = 80;
export const MAX_HEALTH = 20;
export const MAX_FOOD = 20;
/** Vanilla: healing one point costs 6 exhaustion; every 4 exhaustion costs a point of saturation, then food. */
export const EXHAUSTION_PER_HEAL = 6;
export const EXHAUSTION_PER_POINT = 4;
/** Vanilla exhaustion for sprinting (per metre) and jumping; walking costs nothing. */
export const EXHAUSTION_PER_SPRINT_METRE = 0.1;
export const EXHAUSTION_PER_JUMP = 0.05;
export const EXHAUSTION_PER_SPRINT_JUMP = 0.2;
/** Vanilla's saturation at spawn and respawn (never above the food, as in vanilla). */
export const SPAWN_SATURATION = 5;

/** What hunger a body carries: its food, the saturation spent before it, and the exhaustion not yet paid for. */
export interface Hunger {
  food: number;
  saturation: number;
  exhaustion: number;
}

export interface Vitals extends Hunger {
  health: number;
}

/** Whether a player with this much food heals by itself, given time (natural regeneration). */
export function healsByItself(food: number): boolean {
  return food >= REGEN_MIN_FOOD;
}

/** Whether a living body with these vitals heals a point at the next regeneration tick. */
export function regenerates({ health, food }: Pick<Vitals, 'health' | 'food'>): boolean {
  return health > 0 && health < MAX_HEALTH && healsByItself(food);
}

/** `amount` more exhaustion, and what each whole EXHAUSTION_PER_POINT of it costs: saturation first, then food. */
export function exhaust(hunger: Hunger, amount: number): Hunger {
  let { food, saturation } = hunger;
  let exhaustion = hunger.exhaustion + amount;
  while (exhaustion >= EXHAUSTION_PER_POINT) {
    exhaustion -= EXHAUSTION_PER_POINT;
    if (saturation > 0) saturation = Math.max(0, saturation - 1);
    else food = Math.max(0, food - 1);
  }
  return { food, saturation, exhaustion };
}

/** One regeneration tick (every REGEN_INTERVAL_TICKS): a point healed and paid for, or the vitals unchanged. */
export function regenerationTick(vitals: Vitals): Vitals {
  if (!regenerates(vitals)) return vitals;
  return { ...exhaust(vitals, EXHAUSTION_PER_HEAL), health: Math.min(MAX_HEALTH, vitals.health + 1) };
}

/** A meal: its food points, and its saturation, which never rises above the food (vanilla's FoodData.add). */
export function eat(hunger: Hunger, foodPoints: number, saturation: number): Hunger {
  const food = Math.min(MAX_FOOD, hunger.food + foodPoints);
  return { ...hunger, food, saturation: Math.min(food, hunger.saturation + saturation) };
}
