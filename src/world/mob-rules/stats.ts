import minecraftData from 'minecraft-data';
import { MOB_HEALTH } from '../actuator-rules.js';
import { EYE_HEIGHT } from '../reach.js';
import { MINECRAFT_VERSION } from '../recipes.js';

const data = minecraftData(MINECRAFT_VERSION);

/*
 * Vanilla's numbers for the mobs both worlds run, at Normal difficulty (flying-squid runs no mob of its own, so
 * these rules are the only difficulty either world has).
 * Sources: the Minecraft Wiki's pages (https://minecraft.wiki/w/Zombie, /w/Skeleton, /w/Attribute, /w/Arrow,
 * /w/Daylight_cycle, /w/Fire, /w/Damage#Immunity, /w/Mob_spawning) and the game code they describe, named by the
 * classes of Mojang's mappings.
 */

/** One game tick. */
export const TICK_MS = 50;
export const TICKS_PER_SECOND = 20;

/**
 * Blocks per second a mob walks at, from its movement-speed attribute `s`: a mob's forward input is `s` (MoveControl)
 * times 0.98, accelerating it by that times `s` again each tick, and ground friction (0.6 × 0.91) leaves it at
 * a / (1 − 0.546) blocks per tick (LivingEntity.travel). A zombie's 0.23 walks 2.3 blocks/s, half a walking player's 4.3.
 */
export function walkSpeed(attribute: number): number {
  return ((attribute * attribute * 0.98) / (1 - 0.6 * 0.91)) * TICKS_PER_SECOND;
}

export interface MeleeAttack {
  /** Health points a hit takes off a player (Normal: the attack-damage attribute as it is). */
  damage: number;
  /** Ticks between two hits (MeleeAttackGoal.resetAttackCooldown: 20). */
  cooldownTicks: number;
}

export interface BowAttack {
  /** Ticks the bow is drawn before the arrow flies (RangedBowAttackGoal: 20, a full draw). */
  drawTicks: number;
  /** Ticks after a shot before the next draw starts (AbstractSkeleton.reassessWeaponGoal: 40, 20 on Hard). */
  intervalTicks: number;
  /** Blocks within which it stops walking up and shoots (RangedBowAttackGoal's attack radius, 15). */
  range: number;
  /** Closer than this, it backs away while it shoots (the goal strafes backwards under a quarter of range², 7.5). */
  backOff: number;
}

export interface CreeperFuse {
  /** Blocks within which it lights its fuse (SwellGoal: distance² < 9). */
  igniteWithin: number;
  /** Blocks beyond which a lit fuse goes back out (SwellGoal: distance² > 49). */
  defuseBeyond: number;
  /** Ticks the fuse burns before the blast (Creeper.maxSwell 30: 1.5 s). */
  ticks: number;
  /** The blast's power (Creeper.explosionRadius 3). */
  power: number;
}

export interface HostileStats {
  /** Health at spawn (the max-health attribute). */
  health: number;
  /** Natural armour points (a player's hits are reduced by them as a player's armour reduces a mob's). */
  armour: number;
  followRange: number;
  /** Blocks per second (see walkSpeed). */
  speed: number;
  /** Eyes above the feet: where its line of sight starts. */
  eyeHeight: number;
  /** Burns under open sky by day (zombies and skeletons do; husks and strays' kin differ). */
  burnsInDaylight: boolean;
  melee?: MeleeAttack;
  bow?: BowAttack;
  fuse?: CreeperFuse;
  /** Climbs a wall it walks into (a spider), as high as it has room to. */
  climbs?: boolean;
  /** Leaps at a target 2 to 4 blocks off (LeapAtTargetGoal). */
  leaps?: boolean;
  /** Seeks no target in daylight under open sky, and now and then lets one go there (a spider's light rule). */
  neutralInLight?: boolean;
}

const ZOMBIE: HostileStats = {
  // Zombie: health 20, armour 2, follow range 35, movement speed 0.23, attack damage 3 (Normal), eyes at 1.74.
  health: 20,
  armour: 2,
  followRange: 35,
  speed: walkSpeed(0.23),
  eyeHeight: 1.74,
  burnsInDaylight: true,
  melee: { damage: 3, cooldownTicks: 20 },
};

const SKELETON: HostileStats = {
  // Skeleton: health 20, no armour, follow range 16, movement speed 0.25, a bow (RangedBowAttackGoal(this, 1.0, 20, 15)).
  health: 20,
  armour: 0,
  followRange: 16,
  speed: walkSpeed(0.25),
  eyeHeight: 1.74,
  burnsInDaylight: true,
  bow: { drawTicks: 20, intervalTicks: 40, range: 15, backOff: 7.5 },
};

const CREEPER: HostileStats = {
  // Creeper: health 20, no armour, follow range 16, movement speed 0.25, eyes at 1.445 (0.85 × its 1.7), no sunburn.
  health: 20,
  armour: 0,
  followRange: 16,
  speed: walkSpeed(0.25),
  eyeHeight: 1.445,
  burnsInDaylight: false,
  fuse: { igniteWithin: 3, defuseBeyond: 7, ticks: 30, power: 3 },
};

const SPIDER: HostileStats = {
  // Spider: health 16, no armour, follow range 16, movement speed 0.3, attack damage 2 (Normal), eyes at 0.65,
  // no sunburn; climbs walls, leaps at its target, neutral in bright light unless provoked.
  health: 16,
  armour: 0,
  followRange: 16,
  speed: walkSpeed(0.3),
  eyeHeight: 0.65,
  burnsInDaylight: false,
  melee: { damage: 2, cooldownTicks: 20 },
  climbs: true,
  leaps: true,
  neutralInLight: true,
};

/**
 * A leap (LeapAtTargetGoal(0.4)): tried with a chance of 1 in 5 a tick while on the ground with the target 2 to 4
 * blocks off; it throws the mob at 0.4 blocks a tick towards it, air drag keeping 0.91 of that each tick, until it is
 * no faster than its walk (about 2.3 blocks in 8 ticks for a spider).
 */
export const LEAP_CHANCE_PER_TICK = 1 / 5;
export const LEAP_MIN = 2;
export const LEAP_MAX = 4;
export const LEAP_SPEED = 0.4;
export const AIR_DRAG = 0.91;
/** A bright-lit spider lets its target go with a chance of 1 in 100 a tick (SpiderAttackGoal.canContinueToUse). */
export const LIGHT_FORGET_CHANCE_PER_TICK = 1 / 100;

/**
 * The hostile mobs that move and fight. Other hostile kinds stand where they are put, as all mobs did before: their
 * behaviour is not modelled.
 */
export const HOSTILE_STATS: Readonly<Record<string, HostileStats>> = {
  zombie: ZOMBIE,
  zombie_villager: ZOMBIE,
  husk: { ...ZOMBIE, burnsInDaylight: false },
  skeleton: SKELETON,
  stray: SKELETON,
  creeper: CREEPER,
  spider: SPIDER,
};

/** A mob's health at spawn: a hostile kind's own, any other MOB_HEALTH (flying-squid's 20 for every mob). */
export function maxHealth(name: string): number {
  return HOSTILE_STATS[name]?.health ?? MOB_HEALTH;
}

/** Passive mobs' movement-speed attributes (cow 0.2, sheep 0.23, pig and chicken 0.25); others walk as a pig. */
const PASSIVE_SPEED: Readonly<Record<string, number>> = { cow: 0.2, mooshroom: 0.2, sheep: 0.23 };
export function passiveSpeed(name: string): number {
  return walkSpeed(PASSIVE_SPEED[name] ?? 0.25);
}

/**
 * Random strolls (RandomStrollGoal): an idle mob starts one with a chance of 1 in 120 each tick, to a spot within 10
 * blocks. Here the spot is kept within WANDER_RADIUS of where the mob was put, so a scenario's animals stay about
 * where it placed them.
 */
export const WANDER_CHANCE_PER_TICK = 1 / 120;
export const WANDER_RADIUS = 6;

/**
 * A hostile mob looks for a player with a chance of 1 in 10 each tick (NearestAttackableTargetGoal's random interval),
 * within its follow range and 4 blocks up or down, and only one it can see (mustSee).
 */
export const TARGET_CHANCE_PER_TICK = 1 / 10;
export const TARGET_SEARCH_HEIGHT = 4;
/** A target out of sight this many ticks is forgotten (TargetGoal.unseenMemoryTicks). */
export const UNSEEN_MEMORY_TICKS = 60;

/**
 * How far a mob's melee reaches past its own box, horizontally (Mob.getAttackBoundingBox: √2.04 − 0.6); a hit lands
 * when that box meets the target's.
 */
export const MELEE_REACH = Math.sqrt(2.04) - 0.6;

/** A player's box and eyes. */
export const PLAYER_WIDTH = 0.6;
export const PLAYER_HEIGHT = 1.8;
export const PLAYER_EYE_HEIGHT = EYE_HEIGHT;

/** The mob's box as minecraft-data gives it (a zombie 0.6 × 1.95). */
export function mobSize(name: string): { width: number; height: number } {
  const entity = data.entitiesByName[name];
  return { width: entity?.width ?? 0.6, height: entity?.height ?? 1.8 };
}

/**
 * An arrow from a skeleton's full draw: base damage 2 + triangle(difficulty id × 0.11, 0.57425), Normal's id 2
 * (AbstractArrow.setBaseDamageFromMob), times the arrow's speed, 1.6, rounded up (AbstractArrow.onHitEntity): 3 to 5,
 * 4 most often.
 */
export const ARROW_SPEED = 1.6;
export const ARROW_BASE = 2;
export const ARROW_TRIANGLE_MODE = 2 * 0.11;
export const ARROW_TRIANGLE_SPREAD = 0.57425;

/**
 * Sunburn (Mob.isSunBurnTick): by day, under a sky its eyes can see, out of water, a chance of (1 − 0.4) × 2 / 30 each
 * tick in full daylight to catch fire for 8 s; burning takes 1 health every 20 ticks (Entity.baseTick).
 */
export const SUNBURN_CHANCE_PER_TICK = ((1 - 0.4) * 2) / 30;
export const FIRE_TICKS = 8 * TICKS_PER_SECOND;
export const FIRE_DAMAGE = 1;
export const FIRE_DAMAGE_EVERY_TICKS = 20;

/**
 * A player hurt again within 10 ticks of a hit takes only what the new hit exceeds the last by
 * (LivingEntity.hurt: invulnerableTime 20, checked against 10).
 */
export const HURT_IMMUNITY_TICKS = 10;

/**
 * Night spawning (NaturalSpawner): never within 24 blocks of a player. One attempt a second here, at most the
 * scenario's `maxNearby` within its radius.
 */
export const SPAWN_MIN_DISTANCE = 24;
export const SPAWN_INTERVAL_TICKS = 20;
/**
 * Despawning (Mob.checkDespawn, the monster category's despawn distances): gone at once beyond 128 blocks of every
 * player; beyond 32, once 600 ticks (30 s) have passed out there, a chance of 1 in 800 a tick.
 */
export const DESPAWN_NOW_BEYOND = 128;
export const DESPAWN_NEAR = 32;
export const DESPAWN_IDLE_TICKS = 600;
export const DESPAWN_CHANCE_PER_TICK = 1 / 800;
/** Cells a walk is searched over, per block of follow range (PathNavigation.createPathFinder: follow range × 16). */
export const PATH_NODES_PER_RANGE = 16;
/** Re-plan a chase this often, or when the target left the planned goal's cell. */
export const REPATH_TICKS = 10;
