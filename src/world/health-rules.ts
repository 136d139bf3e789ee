/*
 * Natural regeneration, as vanilla rules it (FoodData.tick, 1.21): a survival player whose food is at 18 or more and
 * whose health is below 20 heals a point every 80 ticks (4 s), each point paid for with 6 exhaustion (every 4
 * exhaustion costs a point of saturation, then of food). Below 18 food it never heals but by eating. The embedded
 * server's health plugin heals by this module; the safety layer reads it to judge whether a shelter heals the bot.
 */

/** The least food at which a player heals by itself. */
export const REGEN_MIN_FOOD = 18;
/** Ticks between two points healed. */
export const REGEN_INTERVAL_TICKS = 80;
export const MAX_HEALTH = 20;
/** Vanilla: healing one point costs 6 exhaustion; every 4 exhaustion costs a point of saturation, then food. */
export const EXHAUSTION_PER_HEAL = 6;
export const EXHAUSTION_PER_POINT = 4;

/** Whether a player with this much food heals by itself, given time (natural regeneration). */
export function healsByItself(food: number): boolean {
  return food >= REGEN_MIN_FOOD;
}
