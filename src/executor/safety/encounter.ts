import { type EntityInfo, isNight, type Vec3Like, type WorldPort } from '../../contracts/world.js';
import { ATTACK_DAMAGE, attackDamage } from '../../world/actuator-rules.js';
import {
  armourOf,
  attackCooldownMs,
  blastDamage,
  canStand,
  HOSTILE_STATS,
  lineOfSight,
  type MobTerrain,
} from '../../world/mob-rules/index.js';
import { blocksMovement, hasFloor, open } from '../../world/mob-rules/terrain.js';
import { EYE_HEIGHT } from '../../world/reach.js';
import { digTimeMs, dropsOf } from '../../world/sim/block-data.js';
import { isBuildingBlock, shelterBlockCount } from '../../kit/building-blocks.js';
import { foodsByChoice } from '../../kit/foods.js';
import type { EncounterObservation, HostileSeen, Reach, WeaponStats } from './observation.js';
import { PILLAR_HEIGHT, type ShelterVerb, walkToMeleeS } from './shelters.js';

/*
 * The assessment's observation, read from the world: every hostile within ASSESS_RADIUS and how it can reach the bot,
 * the bot's health, weapons, armour, food and blocks, and whether the ground leads away from the threats.
 */

/** Hostiles this close are part of the encounter: a zombie closes 16 blocks in 7 s. */
export const ASSESS_RADIUS = 16;
/** Walkers this close, beyond the encounter, may join a long fight (a zombie walks 24 blocks in 10 s). */
const ARRIVAL_RADIUS = 24;
/**
 * Hostiles this close are weighed by a flight's way (assess.ts flightFrom): a flight runs 20 to 32 blocks, and a
 * skeleton 23 blocks off shot a bot that fled from a zombie towards it. The night's spawning radius.
 */
const FLIGHT_WATCH = 40;
/** The way out is read this far, every cell along it. */
const WAY_OUT_LENGTH = 8;
/** Blocks between two readings along the way out: a cell is never skipped. */
const WAY_OUT_STEP = 0.25;
/** The highest drop a way out takes: a fall of 3 blocks or less does no damage (the Minecraft Wiki). */
const SAFE_DROP = 3;
/** A blast reaches about this far (power 3): a creeper closer than this is part of the encounter. */
const EXPLOSION_WATCH = ASSESS_RADIUS;

/** What a full-strength hit with `item` in hand does and how often it comes, as both worlds deal it (mob-rules' combat). */
export function weaponStats(item: string | null): WeaponStats {
  return { damage: attackDamage(item), cooldownMs: attackCooldownMs(item) };
}

/** What the world's last observation said that its cheap reads do not: the mobs' health and the time of day. */
export interface ObservedLately {
  health: ReadonlyMap<number, number | null>;
  timeOfDay?: number;
  /** The mobs a close-in failed to reach this encounter (SafetyMonitor.unreachable). */
  unreachable?: ReadonlySet<number>;
}

/**
 * The encounter around the bot. `closeRadius` is the policy's hostileRadius: a hostile kind whose fighting is not
 * modelled counts as a melee threat within it. `lately` gives each hostile's health and whether it is day (a spider
 * is neutral then, unless the world shows it aggressive); without it a mob has its kind's health at spawn. A
 * creeper's swell is the world's (`EntityInfo.swelling`) when it says.
 */
export function observeEncounter(
  world: WorldPort,
  closeRadius: number,
  lately: ObservedLately = { health: new Map() },
): EncounterObservation {
  const daylight = lately.timeOfDay !== undefined && !isNight(lately.timeOfDay);
  const at = world.position();
  const terrain: MobTerrain = { block: (x, y, z) => world.blockAt({ x, y, z })?.name ?? null };
  const hostiles: HostileSeen[] = [];
  const perched = isPerched(terrain, at);
  const enclosed = enclosure(terrain, at);
  for (const entity of world.entities(['hostile'])) {
    if (entity.kind !== 'hostile') continue;
    const distance = Math.hypot(entity.position.x - at.x, entity.position.y - at.y, entity.position.z - at.z);
    const stats = HOSTILE_STATS[entity.name];
    if (distance > ASSESS_RADIUS) {
      const coming = distance <= ARRIVAL_RADIUS && !daylight ? arrivalOf(entity.name, distance) : null;
      // Beyond the encounter, a walker may join a fight, and any hostile may be where a flight ends.
      if (coming !== null) hostiles.push({ ...seenOf(entity, distance, lately), reach: 'none', arrivesInS: coming });
      else if (distance <= FLIGHT_WATCH) hostiles.push({ ...seenOf(entity, distance, lately), reach: 'none' });
      continue;
    }
    const melee = !isRanged(entity.name) && !isExplosive(entity.name);
    // Up a pillar a walker below cannot reach the bot, but a spider climbs it and a creeper's blast rises to it from
    // within the blast's reach; behind a wall no walker reaches it, and a climber only goes over it when the top is open.
    const below =
      perched &&
      at.y - entity.position.y >= PERCH_HEIGHT &&
      !stats?.climbs &&
      !isRanged(entity.name) &&
      !blastReaches(entity.name, distance);
    // A mob inside the walls with the bot (one that walked into the hole before its top closed) is not shut out.
    const shut = melee && !inside(entity.position, at) && (stats?.climbs ? enclosed.covered : enclosed.walled);
    // A spider is neutral by day unless provoked: then it is after the bot until it lets it go (its aggressive flag).
    const neutral = daylight && stats?.neutralInLight === true && entity.aggressive !== true;
    const reach =
      neutral || below || shut ? 'none' : reachOf(entity.name, entity.position, distance, at, terrain, closeRadius);
    hostiles.push({ ...seenOf(entity, distance, lately), reach });
  }
  const inventory = world.inventory();
  const items = Object.keys(inventory).filter((item) => (inventory[item] ?? 0) > 0);
  return {
    hostiles,
    bot: {
      health: world.health(),
      food: world.food(),
      held: world.heldItem(),
      pack: items.filter((item) => attackDamage(item) > ATTACK_DAMAGE),
      armour: armourOf(world.worn?.() ?? []),
      // What eating between fights would eat, best first: consume_food's own choice, never a food that poisons.
      foods: foodsByChoice(inventory, world.food()),
      // As the shelters spend them: one kind a pillar or a wall (a bot offered a pillar for two planks and a dirt, or
      // for three logs, had its guard refuse it, in a night's tech-tree run).
      blocks: shelterBlockCount(inventory),
      position: { x: at.x, y: at.y, z: at.z },
    },
    ground: {
      wayOut: wayOut(
        terrain,
        at,
        hostiles.filter((h) => h.reach !== 'none'),
      ),
      shelter: shelterAround(terrain, at),
      headroom: headroom(terrain, at, PILLAR_HEIGHT),
      digIn: digInHere(world, at, [world.heldItem(), ...items, null]),
    },
  };
}

function seenOf(entity: EntityInfo, distance: number, lately: ObservedLately): Omit<HostileSeen, 'reach'> {
  const swelling = entity.swelling !== undefined ? { swelling: entity.swelling } : {};
  const health = lately.health.get(entity.id) ?? null;
  const unreachable = lately.unreachable?.has(entity.id) ? { unreachable: true } : {};
  return { id: entity.id, name: entity.name, distance, health, position: entity.position, ...swelling, ...unreachable };
}

/**
 * Seconds until a walker (a melee kind that neither climbs nor shoots nor blows up) `distance` blocks off is in melee
 * reach at its walk, or null for any other kind: the ones a fight begun now may be joined by.
 */
function arrivalOf(name: string, distance: number): number | null {
  const stats = HOSTILE_STATS[name];
  if (!stats?.melee || stats.bow || stats.fuse || stats.climbs) return null;
  return walkToMeleeS(name, distance);
}

/**
 * How a hostile reaches the bot: a melee kind walks up (its follow range is beyond ASSESS_RADIUS for zombies), an
 * archer shoots within its bow's range along a clear line from its eyes to the bot's, a creeper blows up. A skeleton
 * behind a wall does not reach the bot yet.
 */
function reachOf(
  name: string,
  position: Vec3Like,
  distance: number,
  bot: Vec3Like,
  terrain: MobTerrain,
  closeRadius: number,
): Reach {
  const stats = HOSTILE_STATS[name];
  if (name === 'creeper') return distance <= EXPLOSION_WATCH ? 'explosion' : 'none';
  if (stats?.bow) {
    if (distance > stats.bow.range) return 'none';
    const eyes = { x: bot.x, y: bot.y + EYE_HEIGHT, z: bot.z };
    const from = { ...position, y: position.y + stats.eyeHeight };
    return lineOfSight(terrain, from, eyes) ? 'bow' : 'none';
  }
  if (stats?.melee) return distance <= stats.followRange ? 'melee' : 'none';
  return distance <= closeRadius ? 'melee' : 'none';
}

/** The four sides of a cell, horizontally. */
export const SIDES: readonly (readonly [number, number])[] = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
];

/** A bot this far above a walker, on a column it cannot climb, is out of its reach (a step up is 1 block). */
export const PERCH_HEIGHT = 2;

function isRanged(name: string): boolean {
  return HOSTILE_STATS[name]?.bow !== undefined;
}

/** A creeper's blast goes through a wall (and up a pillar: its reach is the blast's, not a walk). */
function isExplosive(name: string): boolean {
  return HOSTILE_STATS[name]?.fuse !== undefined;
}

/** Whether an exploding kind `distance` from the bot would hurt it by blowing up there (its blast's reach). */
function blastReaches(name: string, distance: number): boolean {
  const fuse = HOSTILE_STATS[name]?.fuse;
  return fuse !== undefined && blastDamage(fuse.power, distance, 1) > 0;
}

/**
 * Whether the bot is walled in (every cell beside its feet and its head blocks movement: wall_in, or the hole dig_in
 * dug) and also covered (the cell over its head too).
 */
export function enclosure(terrain: MobTerrain, at: Vec3Like): { walled: boolean; covered: boolean } {
  const x = Math.floor(at.x);
  const y = Math.floor(at.y);
  const z = Math.floor(at.z);
  const walled = SIDES.every(([dx, dz]) => [0, 1].every((up) => blocksMovement(terrain.block(x + dx, y + up, z + dz))));
  return { walled, covered: walled && blocksMovement(terrain.block(x, y + 2, z)) };
}

/** Whether `position` is within the bot's cell, its feet or its head (inside the walls of a hole or a wall_in). */
function inside(position: Vec3Like, at: Vec3Like): boolean {
  const same = (a: number, b: number) => Math.floor(a) === Math.floor(b);
  return same(position.x, at.x) && same(position.z, at.z) && Math.abs(Math.floor(position.y) - Math.floor(at.y)) <= 1;
}

/**
 * Whether the bot stands on a column nothing can walk up to: none of the four cells beside its floor, nor the ones
 * under those, holds anything to stand on (a pillar it built). Walkers below it cannot reach it there.
 */
export function isPerched(terrain: MobTerrain, at: Vec3Like): boolean {
  const x = Math.floor(at.x);
  const y = Math.floor(at.y);
  const z = Math.floor(at.z);
  return SIDES.every(([dx, dz]) => [1, 2].every((down) => !blocksMovement(terrain.block(x + dx, y - down, z + dz))));
}

/**
 * The shelter the bot stands in: up a pillar (nothing to stand on beside its column), dug in (walled and covered), or
 * behind a wall (walled, the top open); null in the open.
 */
export function shelterAround(terrain: MobTerrain, at: Vec3Like): ShelterVerb | null {
  if (isPerched(terrain, at)) return 'pillar_up';
  const { walled, covered } = enclosure(terrain, at);
  if (covered) return 'dig_in';
  return walled ? 'wall_in' : null;
}

/** The open cells over the bot's head, counted up to `upTo`: the room a pillar has to rise. */
function headroom(terrain: MobTerrain, at: Vec3Like, upTo: number): number {
  const [x, head, z] = [Math.floor(at.x), Math.floor(at.y) + 1, Math.floor(at.z)];
  let room = 0;
  while (room < upTo && !blocksMovement(terrain.block(x, head + room + 1, z))) room++;
  return room;
}

/**
 * The three cells under the bot, as dig_in digs them: the time they take, each with the quickest of `tools` (the
 * hand's item, the pack's, bare hands), and whether one drops a block that can close the hole's top. Null when one is
 * not a solid block a tool breaks, or the hole would open to the side or have no floor (as dig_in's guard judges).
 */
function digInHere(
  world: WorldPort,
  at: Vec3Like,
  tools: readonly (string | null)[],
): { ms: number; yieldsCover: boolean } | null {
  const [x, feet, z] = [Math.floor(at.x), Math.floor(at.y), Math.floor(at.z)];
  let ms = 0;
  let yieldsCover = false;
  const solid = (cx: number, cy: number, cz: number) =>
    blocksMovement(world.blockAt({ x: cx, y: cy, z: cz })?.name ?? null);
  // Walled where the body will be and floored, or the hole opens to the side (a pillar's column, a cave).
  const walled = [feet - 2, feet - 3].every((y) => SIDES.every(([dx, dz]) => solid(x + dx, y, z + dz)));
  if (!walled || !solid(x, feet - 4, z)) return null;
  for (const y of [feet - 1, feet - 2, feet - 3]) {
    const block = world.blockAt({ x, y, z });
    if (!block?.diggable || !blocksMovement(block.name)) return null;
    const best = tools.reduce((a, b) => (digTimeMs(block.name, b) < digTimeMs(block.name, a) ? b : a));
    ms += digTimeMs(block.name, best);
    yieldsCover ||= dropsOf(block.name, best).some(isBuildingBlock);
  }
  return { ms, yieldsCover };
}

/**
 * Where a bot walking off a ledge at `y` into the column x, z lands: 2 to SAFE_DROP blocks down, every cell it falls
 * through open; undefined when it would fall farther, or a block is in the way.
 */
function dropTo(terrain: MobTerrain, x: number, y: number, z: number): number | undefined {
  // The body steps in at y and y + 1, then falls through every cell down to where it lands.
  for (let cell = y + 1; cell >= y - SAFE_DROP; cell--) {
    if (!open(terrain, x, cell, z)) return undefined;
    if (cell <= y - 2 && hasFloor(terrain, x, cell, z)) return cell;
  }
  return undefined;
}

/**
 * Whether the bot can walk WAY_OUT_LENGTH blocks straight away from the threats' centroid: a step up or down, or a
 * drop of up to SAFE_DROP blocks through open cells (off a pillar's top: a bot up its pillar of 3 is not cornered).
 */
function wayOut(terrain: MobTerrain, at: Vec3Like, threats: readonly HostileSeen[]): boolean {
  if (threats.length === 0) return true;
  const cx = threats.reduce((s, h) => s + h.position.x, 0) / threats.length;
  const cz = threats.reduce((s, h) => s + h.position.z, 0) / threats.length;
  const length = Math.hypot(at.x - cx, at.z - cz);
  const [dx, dz] = length < 1e-6 ? [1, 0] : [(at.x - cx) / length, (at.z - cz) / length];
  let [x, y, z] = [Math.floor(at.x), Math.floor(at.y), Math.floor(at.z)];
  // Every cell the line crosses (a wall one block thick stands between two cells two apart), and no corner cut between
  // two blocks: a diagonal step needs one of the two cells beside it open too.
  const standAt = (cx: number, cz: number) =>
    [y, y + 1, y - 1].find((cy) => canStand(terrain, cx, cy, cz)) ?? dropTo(terrain, cx, y, cz);
  for (let step = WAY_OUT_STEP; step <= WAY_OUT_LENGTH; step += WAY_OUT_STEP) {
    const [nx, nz] = [Math.floor(at.x + dx * step), Math.floor(at.z + dz * step)];
    if (nx === x && nz === z) continue;
    if (nx !== x && nz !== z && standAt(nx, z) === undefined && standAt(x, nz) === undefined) return false;
    const next = standAt(nx, nz);
    if (next === undefined) return false;
    [x, y, z] = [nx, next, nz];
  }
  return true;
}
