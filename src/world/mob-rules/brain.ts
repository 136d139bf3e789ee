import { isNight, type Vec3Like } from '../../contracts/world.js';
import type { Random } from '../../random.js';
import { mobKind } from '../mobs.js';
import {
  AIR_DRAG,
  ARROW_BASE,
  ARROW_SPEED,
  ARROW_TRIANGLE_MODE,
  ARROW_TRIANGLE_SPREAD,
  type BowAttack,
  type CreeperFuse,
  FIRE_DAMAGE,
  FIRE_DAMAGE_EVERY_TICKS,
  FIRE_TICKS,
  HOSTILE_STATS,
  type HostileStats,
  LEAP_CHANCE_PER_TICK,
  LEAP_MAX,
  LEAP_MIN,
  LEAP_SPEED,
  LIGHT_FORGET_CHANCE_PER_TICK,
  MELEE_REACH,
  mobSize,
  PATH_NODES_PER_RANGE,
  PLAYER_EYE_HEIGHT,
  PLAYER_HEIGHT,
  PLAYER_WIDTH,
  passiveSpeed,
  REPATH_TICKS,
  SUNBURN_CHANCE_PER_TICK,
  TARGET_CHANCE_PER_TICK,
  TARGET_SEARCH_HEIGHT,
  TICKS_PER_SECOND,
  UNSEEN_MEMORY_TICKS,
  WANDER_CHANCE_PER_TICK,
  WANDER_RADIUS,
} from './stats.js';
import {
  type Cell,
  canStand,
  cellOf,
  inWater,
  lineOfSight,
  type MobTerrain,
  type Position,
  skyOpenAbove,
} from './terrain.js';
import { advance, approach, bodyOf, findWalk, step } from './walk.js';

/** A player as a mob sees it. */
export interface MobPlayer {
  id: number;
  position: Vec3Like;
  /** Alive and in survival: a mob may target it. */
  targetable: boolean;
}

/** A mob the rules drive: its position is moved in place. */
export interface Mob {
  readonly id: number;
  readonly name: string;
  readonly position: Position;
}

/** What a mob remembers from tick to tick. */
export interface MobMind {
  readonly home: Vec3Like;
  target: number | null;
  unseenTicks: number;
  walk: Cell[];
  walkGoal: Cell | null;
  repathAt: number;
  nextHitAt: number;
  /** Ticks the target has been in sight (positive) or out of it (negative), as RangedBowAttackGoal counts. */
  seeTicks: number;
  drawingSince: number | null;
  nextDrawAt: number;
  fireTicks: number;
  /** A creeper's fuse: ticks burnt so far, and whether it is burning (1) or going out (−1). */
  swell: number;
  swellDir: 1 | -1;
  /** A leaper's speed in blocks a tick while it flies at its target (0 on the ground). */
  leap: number;
  /** Whether the world was last told the mob is after a target (its "aggressive" flag). */
  shownAggressive: boolean;
}

export type MobEvent =
  | { kind: 'hit'; player: number; damage: number; cause: 'melee' | 'arrow' }
  | { kind: 'burn'; damage: number }
  /** A creeper's fuse was lit (true) or started going out (false). */
  | { kind: 'swell'; lit: boolean }
  /** A creeper's fuse burnt down: it blows up where it stands. */
  | { kind: 'explode'; power: number }
  /** It took a target (true) or lost it (false): the "aggressive" flag a client sees (Mob.setAggressive). */
  | { kind: 'aggressive'; on: boolean };

/** What one tick of the world gives the rules. */
export interface MobWorld {
  terrain: MobTerrain;
  /** The world's tick count: cooldowns are kept in it. */
  tick: number;
  timeOfDay: number;
  players: readonly MobPlayer[];
  random: Random;
}

export function newMind(home: Vec3Like): MobMind {
  return {
    home: { x: home.x, y: home.y, z: home.z },
    target: null,
    unseenTicks: 0,
    walk: [],
    walkGoal: null,
    repathAt: 0,
    nextHitAt: 0,
    seeTicks: 0,
    drawingSince: null,
    nextDrawAt: 0,
    fireTicks: 0,
    swell: 0,
    swellDir: -1,
    leap: 0,
    shownAggressive: false,
  };
}

/** Whether the rules move this mob at all: the hostile kinds in HOSTILE_STATS and every passive mob. */
export function isDriven(name: string): boolean {
  return HOSTILE_STATS[name] !== undefined || mobKind(name) === 'passive';
}

/** One tick of a mob: burning, then (hostile) finding, chasing and hurting a player, or (passive) strolling. */
export function tickMob(mob: Mob, mind: MobMind, world: MobWorld): MobEvent[] {
  const events: MobEvent[] = [];
  const stats = HOSTILE_STATS[mob.name];
  const burn = burning(mob, mind, world, stats?.burnsInDaylight === true);
  if (burn > 0) events.push({ kind: 'burn', damage: burn });
  if (stats) events.push(...hunt(mob, mind, world, stats));
  else if (mobKind(mob.name) === 'passive') stroll(mob, mind, world);
  return events;
}

/** A player's hit on a mob makes a hostile one turn on that player, wherever it is (HurtByTargetGoal). */
export function provoke(mob: Mob, mind: MobMind, player: number): void {
  mind.walk = [];
  if (HOSTILE_STATS[mob.name] === undefined) return;
  mind.target = player;
  mind.unseenTicks = 0;
}

/** Sunburn and the fire it lights: the damage this tick (0 or FIRE_DAMAGE). */
function burning(mob: Mob, mind: MobMind, world: MobWorld, burnsInDaylight: boolean): number {
  if (inWater(world.terrain, mob.position)) {
    mind.fireTicks = 0;
    return 0;
  }
  if (burnsInDaylight && !isNight(world.timeOfDay) && world.random() < SUNBURN_CHANCE_PER_TICK) {
    const eyes = cellOf({ ...mob.position, y: mob.position.y + (HOSTILE_STATS[mob.name]?.eyeHeight ?? 1.6) });
    if (skyOpenAbove(world.terrain, eyes)) mind.fireTicks = Math.max(mind.fireTicks, FIRE_TICKS);
  }
  if (mind.fireTicks <= 0) return 0;
  const damage = mind.fireTicks % FIRE_DAMAGE_EVERY_TICKS === 0 ? FIRE_DAMAGE : 0;
  mind.fireTicks--;
  return damage;
}

function hunt(mob: Mob, mind: MobMind, world: MobWorld, stats: HostileStats): MobEvent[] {
  const target = keepOrFindTarget(mob, mind, world, stats);
  const shown = showAggression(mind, target !== null);
  if (stats.fuse) return [...shown, ...swell(mob, mind, world, stats, stats.fuse, target)];
  if (!target) {
    mind.walk = [];
    mind.drawingSince = null;
    return shown;
  }
  const acts = stats.bow ? shoot(mob, mind, world, stats, stats.bow, target) : strike(mob, mind, world, stats, target);
  return [...shown, ...acts];
}

/**
 * The "aggressive" flag changes with the target (vanilla sets it as its attack goal starts and stops): a spider
 * provoked by day shows it until it lets its target go.
 */
function showAggression(mind: MobMind, hunting: boolean): MobEvent[] {
  if (hunting === mind.shownAggressive) return [];
  mind.shownAggressive = hunting;
  return [{ kind: 'aggressive', on: hunting }];
}

function eyesOf(mob: Mob, stats: HostileStats): Vec3Like {
  return { x: mob.position.x, y: mob.position.y + stats.eyeHeight, z: mob.position.z };
}

const playerEyes = (player: MobPlayer): Vec3Like => ({
  x: player.position.x,
  y: player.position.y + PLAYER_EYE_HEIGHT,
  z: player.position.z,
});

function distance(a: Vec3Like, b: Vec3Like): number {
  return Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);
}

/** The target kept (alive, in range, not out of sight too long) or newly found (in range, in sight), or null. */
function keepOrFindTarget(mob: Mob, mind: MobMind, world: MobWorld, stats: HostileStats): MobPlayer | null {
  const sees = (player: MobPlayer) => lineOfSight(world.terrain, eyesOf(mob, stats), playerEyes(player));
  const bright = stats.neutralInLight === true && inBrightLight(mob, world, stats);
  if (mind.target !== null && bright && world.random() < LIGHT_FORGET_CHANCE_PER_TICK) mind.target = null;
  if (mind.target !== null) {
    const kept = world.players.find((p) => p.id === mind.target);
    if (kept?.targetable && distance(kept.position, mob.position) <= stats.followRange) {
      mind.unseenTicks = sees(kept) ? 0 : mind.unseenTicks + 1;
      if (mind.unseenTicks <= UNSEEN_MEMORY_TICKS) return kept;
    }
    mind.target = null;
  }
  if (bright || world.random() >= TARGET_CHANCE_PER_TICK) return null;
  const found = world.players
    .filter(
      (p) =>
        p.targetable &&
        Math.abs(p.position.y - mob.position.y) <= TARGET_SEARCH_HEIGHT &&
        distance(p.position, mob.position) <= stats.followRange,
    )
    .sort((a, b) => distance(a.position, mob.position) - distance(b.position, mob.position))
    .find(sees);
  if (!found) return null;
  mind.target = found.id;
  mind.unseenTicks = 0;
  mind.seeTicks = 0;
  return found;
}

/** Daylight on the mob: by day, with the sky open above its eyes (the light a spider's rule reads as bright). */
function inBrightLight(mob: Mob, world: MobWorld, stats: HostileStats): boolean {
  if (isNight(world.timeOfDay)) return false;
  return skyOpenAbove(world.terrain, cellOf({ ...mob.position, y: mob.position.y + stats.eyeHeight }));
}

/**
 * Whether a mob's melee reaches the player: its box grown by MELEE_REACH horizontally meets the player's box
 * (Mob.isWithinMeleeAttackRange).
 */
export function withinMeleeRange(name: string, mob: Vec3Like, player: Vec3Like): boolean {
  const { width, height } = mobSize(name);
  const reach = width / 2 + MELEE_REACH + PLAYER_WIDTH / 2;
  return (
    Math.abs(mob.x - player.x) < reach &&
    Math.abs(mob.z - player.z) < reach &&
    mob.y < player.y + PLAYER_HEIGHT &&
    player.y < mob.y + height
  );
}

/** A zombie: walk up to the player and hit it when in reach and in sight, once per cooldown. */
function strike(mob: Mob, mind: MobMind, world: MobWorld, stats: HostileStats, target: MobPlayer): MobEvent[] {
  const melee = stats.melee!;
  chase(mob, mind, world, stats, target, 1);
  if (
    world.tick < mind.nextHitAt ||
    !withinMeleeRange(mob.name, mob.position, target.position) ||
    !lineOfSight(world.terrain, eyesOf(mob, stats), playerEyes(target))
  )
    return [];
  mind.nextHitAt = world.tick + melee.cooldownTicks;
  return [{ kind: 'hit', player: target.id, damage: melee.damage, cause: 'melee' }];
}

/** Walks towards the target until within `stopAt` blocks of it horizontally, re-planning as it moves. */
function chase(mob: Mob, mind: MobMind, world: MobWorld, stats: HostileStats, target: MobPlayer, stopAt: number) {
  const gap = Math.hypot(target.position.x - mob.position.x, target.position.z - mob.position.z);
  // Close enough, unless the target is a level up or more (a climber goes on up the wall to it).
  if (gap <= stopAt && Math.abs(target.position.y - mob.position.y) < 1) {
    mind.walk = [];
    return;
  }
  const goal = cellOf(target.position);
  const body = bodyOf(mobSize(mob.name));
  const moved =
    mind.walkGoal === null || goal.x !== mind.walkGoal.x || goal.y !== mind.walkGoal.y || goal.z !== mind.walkGoal.z;
  if (mind.walk.length === 0 || moved || world.tick >= mind.repathAt) {
    const maxNodes = Math.floor(stats.followRange * PATH_NODES_PER_RANGE);
    mind.walk = findWalk(world.terrain, cellOf(mob.position), goal, 1, maxNodes, stats.climbs === true, body);
    mind.walkGoal = goal;
    mind.repathAt = world.tick + REPATH_TICKS;
  }
  const leap = leapSpeed(mob, mind, world, stats, gap);
  const pace = Math.max(leap, stats.speed / TICKS_PER_SECOND);
  // The walk ends in a cell next to the target's; from there the mob walks straight at the target, as vanilla's
  // MeleeAttackGoal moves to the target itself: stopping at that cell's edge left a zombie 1.43 blocks from a bot at
  // a cell's centre, a hair outside its reach, forever.
  if (mind.walk.length === 0 && Math.abs(target.position.y - mob.position.y) < 1)
    approach(world.terrain, mob.position, target.position, Math.min(pace, gap - stopAt), body);
  else mind.walk = advance(world.terrain, mob.position, mind.walk, pace, body);
}

/**
 * A leaper's speed this tick while it flies at its target (0 when it is not leaping): a leap starts by chance on the
 * ground 2 to 4 blocks from the target and slows by the air's drag until no faster than the walk.
 */
function leapSpeed(mob: Mob, mind: MobMind, world: MobWorld, stats: HostileStats, gap: number): number {
  if (!stats.leaps) return 0;
  if (mind.leap > stats.speed / TICKS_PER_SECOND) {
    const speed = mind.leap;
    mind.leap *= AIR_DRAG;
    return speed;
  }
  mind.leap = 0;
  const onGround = Number.isInteger(mob.position.y);
  if (onGround && gap >= LEAP_MIN && gap <= LEAP_MAX && world.random() < LEAP_CHANCE_PER_TICK) mind.leap = LEAP_SPEED;
  return 0;
}

/**
 * A creeper (SwellGoal with MeleeAttackGoal): walk up to the player; within `igniteWithin` blocks stand and light the
 * fuse, which keeps burning while the player stays in sight within `defuseBeyond` and goes back out, a tick at a time,
 * otherwise (the walk resumes once it is out of the near range with the fuse going out). A fuse burnt for `ticks`
 * blows it up.
 */
function swell(
  mob: Mob,
  mind: MobMind,
  world: MobWorld,
  stats: HostileStats,
  fuse: CreeperFuse,
  target: MobPlayer | null,
): MobEvent[] {
  const gap = target ? distance(target.position, mob.position) : Infinity;
  const before = mind.swellDir;
  if (target && (mind.swellDir > 0 || gap < fuse.igniteWithin)) {
    mind.walk = [];
    const seen = lineOfSight(world.terrain, eyesOf(mob, stats), playerEyes(target));
    mind.swellDir = gap > fuse.defuseBeyond || !seen ? -1 : 1;
  } else {
    mind.swellDir = -1;
    if (target) chase(mob, mind, world, stats, target, 1);
    else mind.walk = [];
  }
  mind.swell = Math.max(0, mind.swell + mind.swellDir);
  if (mind.swell >= fuse.ticks) return [{ kind: 'explode', power: fuse.power }];
  return mind.swellDir === before ? [] : [{ kind: 'swell', lit: mind.swellDir > 0 }];
}

/**
 * A skeleton: walk up until within the bow's range with the player in sight for a second, back away when closer than
 * `backOff`, and loose an arrow after each full draw while it sees the player (an arrow flies in a straight line and
 * hurts only when that line to the player's chest crosses no block).
 */
function shoot(
  mob: Mob,
  mind: MobMind,
  world: MobWorld,
  stats: HostileStats,
  bow: BowAttack,
  target: MobPlayer,
): MobEvent[] {
  const eyes = eyesOf(mob, stats);
  const seen = lineOfSight(world.terrain, eyes, playerEyes(target));
  if (seen !== mind.seeTicks > 0) mind.seeTicks = 0;
  mind.seeTicks += seen ? 1 : -1;
  const gap = distance(target.position, mob.position);
  if (gap > bow.range || mind.seeTicks < TICKS_PER_SECOND) chase(mob, mind, world, stats, target, 1);
  else if (gap < bow.backOff) backAway(mob, mind, world, stats, target);
  else mind.walk = [];
  if (mind.drawingSince !== null) {
    if (!seen && mind.seeTicks < -UNSEEN_MEMORY_TICKS) mind.drawingSince = null;
    else if (seen && world.tick - mind.drawingSince >= bow.drawTicks) {
      mind.drawingSince = null;
      mind.nextDrawAt = world.tick + bow.intervalTicks;
      const chest = { ...target.position, y: target.position.y + PLAYER_HEIGHT / 2 };
      if (lineOfSight(world.terrain, eyes, chest))
        return [{ kind: 'hit', player: target.id, damage: arrowDamage(world.random), cause: 'arrow' }];
    }
  } else if (world.tick >= mind.nextDrawAt && mind.seeTicks >= -UNSEEN_MEMORY_TICKS) mind.drawingSince = world.tick;
  return [];
}

/** Steps to the neighbouring cell farthest from the player, at half speed (the bow goal strafes backwards at 0.5). */
function backAway(mob: Mob, mind: MobMind, world: MobWorld, stats: HostileStats, target: MobPlayer): void {
  if (mind.walk.length === 0) {
    const here = cellOf(mob.position);
    const away = (c: Cell) => Math.hypot(c.x + 0.5 - target.position.x, c.z + 0.5 - target.position.z);
    const options = [
      [0, -1],
      [1, 0],
      [0, 1],
      [-1, 0],
    ]
      .map(([dx, dz]) => step(world.terrain, here, dx!, dz!))
      .filter((c): c is Cell => c !== null && away(c) > away(here));
    const best = options.sort((a, b) => away(b) - away(a))[0];
    mind.walk = best ? [best] : [];
    mind.walkGoal = null;
  }
  mind.walk = advance(world.terrain, mob.position, mind.walk, stats.speed / 2 / TICKS_PER_SECOND);
}

/** An arrow's damage: ceil(1.6 × (2 + triangle(0.22, 0.57425))), 3 to 5. */
export function arrowDamage(random: Random): number {
  const base = ARROW_BASE + ARROW_TRIANGLE_MODE + ARROW_TRIANGLE_SPREAD * (random() - random());
  return Math.ceil(ARROW_SPEED * base);
}

/** A passive mob: now and then, a slow walk to a random standable cell within WANDER_RADIUS of where it was put. */
function stroll(mob: Mob, mind: MobMind, world: MobWorld): void {
  if (mind.walk.length > 0) {
    mind.walk = advance(world.terrain, mob.position, mind.walk, passiveSpeed(mob.name) / TICKS_PER_SECOND);
    return;
  }
  if (world.random() >= WANDER_CHANCE_PER_TICK) return;
  const home = cellOf(mind.home);
  const x = home.x + Math.round((world.random() * 2 - 1) * WANDER_RADIUS);
  const z = home.z + Math.round((world.random() * 2 - 1) * WANDER_RADIUS);
  for (let y = home.y + 2; y >= home.y - 3; y--) {
    if (!canStand(world.terrain, x, y, z)) continue;
    mind.walk = findWalk(world.terrain, cellOf(mob.position), { x, y, z }, 0, WANDER_RADIUS * 40);
    return;
  }
}
