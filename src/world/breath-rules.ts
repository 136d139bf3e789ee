/*
 * Breath and drowning, as vanilla rules them (LivingEntity.baseTick, 1.20-1.21, e.g. the decompiled source in
 * NeoForged's and Paper's patches): each tick a living body whose eyes are in water (not a bubble column), that cannot
 * breathe there and is not invulnerable (creative), loses one air (no Respiration); when its air reaches -20 the air
 * is set to 0 and it takes 2 drowning damage, so an empty supply costs 2 health every 20 ticks. Eyes out of water,
 * the air refills 4 per tick (`increaseAirSupply`: min(air + 4, max)) up to 300. Both worlds breathe through this
 * module: the embedded server's drowning plugin and SimWorld's breath.
 */

/** A player's full air supply (ticks): 15 s under water before the first damage is near. */
export const MAX_AIR = 300;
export const DROWNING_DAMAGE = 2;
/** The air at which drowning damage is dealt (and the supply reset to 0): 20 ticks after it ran out. */
export const DROWNING_AIR = -20;
export const AIR_REFILL_PER_TICK = 4;
/** A standing player's eye height (blocks above its feet). */
export const PLAYER_EYE_HEIGHT = 1.62;

export interface Breath {
  /** Ticks of air left, MAX_AIR when full; down to DROWNING_AIR + 1 while drowning. */
  air: number;
  /** Health this tick costs (0 or DROWNING_DAMAGE). */
  damage: number;
}

/** One game tick of breathing for a body that can drown (survival or adventure mode). */
export function breathe(air: number, eyesInWater: boolean): Breath {
  if (!eyesInWater) return { air: Math.min(MAX_AIR, air + AIR_REFILL_PER_TICK), damage: 0 };
  const next = air - 1;
  return next <= DROWNING_AIR ? { air: 0, damage: DROWNING_DAMAGE } : { air: next, damage: 0 };
}

/**
 * What a client is told of the air: vanilla sends the raw value (negative while drowning), which mineflayer turns
 * into `bot.oxygenLevel` = air / 15; clamped at 0 here so that reads 0..20 as mineflayer documents.
 */
export function airForClient(air: number): number {
  return Math.max(0, air);
}

/** Blocks that are always full of water (a body in one is in water). */
const WATER_FILLED = new Set(['water', 'kelp', 'kelp_plant', 'seagrass', 'tall_seagrass']);

/**
 * Whether eyes at height `eyeY` in the block cell whose floor is `cellY` are under the water there: inside the
 * fluid's height (a source or falling block 8/9 of a block, flowing water less; full when water stands above).
 * `level` is the water block's `level` property (0 for a source); `waterAbove` whether the cell above holds water.
 */
export function eyesInWater(name: string, level: number, waterAbove: boolean, eyeY: number, cellY: number): boolean {
  if (name === 'bubble_column') return false;
  if (!WATER_FILLED.has(name)) return false;
  if (waterAbove) return true;
  const amount = name === 'water' && level > 0 && level < 8 ? 8 - level : 8;
  return eyeY < cellY + amount / 9;
}

export function isWaterFilled(name: string): boolean {
  return WATER_FILLED.has(name);
}
