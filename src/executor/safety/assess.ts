import { ATTACK_COOLDOWN_MS, ATTACK_REACH } from '../../world/actuator-rules.js';
import {
  type ArmourPiece,
  blastDamage,
  damageAfterArmour,
  damageToMob,
  HOSTILE_STATS,
  type HostileStats,
  maxHealth,
  TICK_MS,
} from '../../world/mob-rules/index.js';
import { backInReachSeconds, contactShare } from './contact.js';
import { shelterChoices, type ShelterVerb } from './shelters.js';

export type { ShelterVerb } from './shelters.js';

/*
 * The safety layer's judgment of an encounter: a pure function from what the bot sees (the hostiles, itself, the
 * ground) to a ranked list of responses, each with the reason a log or a planner can read. The monitor builds the
 * observation from the world (encounter.ts) and turns the choice into fast-path steps (responses.ts).
 */

/** How a hostile can hurt the bot from where it stands now. */
export type Reach = 'melee' | 'bow' | 'explosion' | 'none';

export interface HostileSeen {
  id: number;
  name: string;
  /** Blocks from the bot (3-D, feet to feet). */
  distance: number;
  /** Health left; null when the world does not say (the kind's health at spawn, HOSTILE_STATS, is assumed). */
  health: number | null;
  reach: Reach;
  /** A creeper's fuse is burning (the world shows it swelling); absent when the world does not say. */
  swelling?: boolean;
  /** Where it stands, for the way out (away from every threat's centroid). */
  position: { x: number; y: number; z: number };
  /**
   * A walker beyond the encounter's radius, coming (reach 'none' until it is near): the seconds until it is in melee
   * reach. A fight that lasts longer has it join.
   */
  arrivesInS?: number;
}

/** What the bot's melee does with one item in hand: damage per hit and the time between full-strength hits. */
export interface WeaponStats {
  /** Before the mob's own armour (damageToMob takes that off per target). */
  damage: number;
  cooldownMs: number;
}

export interface EncounterObservation {
  hostiles: readonly HostileSeen[];
  bot: {
    health: number;
    food: number;
    /** What the main hand holds now. */
    held: string | null;
    /** Items in the pack that could be held instead (weapons, tools); the hand's item need not be repeated. */
    pack: readonly string[];
    armour: ArmourPiece;
    /** Food items the pack holds (eating between fights). */
    foods: readonly string[];
    /** Solid blocks in the pack: what a pillar or a wall is built of. */
    blocks: number;
    /** Where it stands (the feet); absent when not known: a flight then runs from the threats' centre. */
    position?: { x: number; y: number; z: number };
  };
  ground: {
    /** A walkable way away from every threat (from their centroid). */
    wayOut: boolean;
    /** The shelter the bot stands in now (up a pillar, behind a wall, dug in); absent or null in the open. */
    shelter?: ShelterVerb | null;
    /** Open cells over the bot's head, counted up to a pillar's height; absent when not measured (room assumed). */
    headroom?: number;
    /**
     * Digging in here (dig_in): the three cells under the bot, the time they take with the best tool at hand and
     * whether what they drop can close the hole's top; null when they are not three solid cells a tool breaks; absent
     * when not measured (a shovel or a pickaxe and a block in the pack are then what it takes).
     */
    digIn?: { ms: number; yieldsCover: boolean } | null;
  };
}

export interface CombatSettings {
  /** 'avoid' never starts a fight: flee or shelter. */
  combat: 'auto' | 'avoid';
  /** The health a fight must be expected to leave the bot with, at least. */
  fightHealthFloor: number;
}

export type Choice =
  | { kind: 'fight' | 'close_in'; target: HostileSeen; weapon: string | null; breakOffBelow: number; reason: string }
  | {
      kind: 'flee';
      from: { x: number; y: number; z: number };
      /** The kinds to end clear of, judged where they are when the flight ends. */
      clearOf: string[];
      distance: number;
      reason: string;
    }
  | {
      kind: 'shelter';
      /** The capability that builds it: up a pillar, behind a wall, or dug into the ground under a closed top. */
      verb: ShelterVerb;
      /** A pillar's height. */
      height?: number;
      reason: string;
    }
  | { kind: 'eat'; food: string; reason: string };

export interface Assessment {
  /** Best first; the fast path runs the first whose capability can run here. Empty when nothing threatens. */
  choices: Choice[];
  /** The fight's estimate with the best weapon (null when no hostile can be fought). */
  fight: FightEstimate | null;
  /** The hostiles that can reach the bot now. */
  threats: readonly HostileSeen[];
}

export interface FightEstimate {
  weapon: string | null;
  damagePerHit: number;
  /** Health the bot is expected to lose before every reachable hostile is dead. */
  expectedDamage: number;
  /** Seconds the fight is expected to last, the walkers that join it included. */
  seconds: number;
  targets: readonly HostileSeen[];
}

/** Full health for a player. */
const FULL_HEALTH = 20;
/**
 * Health a fight may lose beyond its estimate before it breaks off to be judged again (two zombie hits): an estimate
 * is a mean, and a fight going that much worse than judged (a crowd arriving at once, a bot slowed by a busy machine,
 * as a full test run made one on the embedded server) is judged again from where it stands, where the same fight may
 * have become a shelter. Never below the fight's health floor.
 */
const BREAK_OFF_MARGIN = 6;
/** Seconds a fight spends walking from one target to the next. */
const RETARGET_S = 0.5;
/** A hostile this far or farther (and out of its bow's reach) lets the bot eat first. */
const EAT_CLEARANCE = 10;
/** This many hostiles or more at once, too many to fight, send the bot up a pillar rather than running. */
const OUTNUMBERED = 3;
/** A flight from walkers ends this far clear of every one: twice a zombie's notice of a close bot (hostileRadius). */
const CHASER_CLEARANCE = 10;
/** With an archer among them, past its bow's range (15). */
const ARCHER_CLEARANCE = 16;
/** A player's walk, blocks per second (sprint-less, as the pathfinder closes in). */
const PLAYER_WALK_SPEED = 4.317;
/** An archer as fast as the bot is still caught up with, slowly: it stops to draw. */
const MIN_CLOSING_SPEED = 0.5;
/** An arrow from a full draw: 4 most often (mob-rules' arrowDamage draws 3 to 5). */
const ARROW_TYPICAL = 4;

/** The assessment: what threatens, what a fight would cost, and the ranked responses with their reasons. */
export function assess(
  seen: EncounterObservation,
  settings: CombatSettings,
  weaponOf: (item: string | null) => WeaponStats,
): Assessment {
  const threats = seen.hostiles.filter((h) => h.reach !== 'none');
  if (threats.length === 0) return { choices: [], fight: null, threats };
  const fight = estimateFight(seen, threats, weaponOf);
  const choices: Choice[] = [];
  const eat = eatFirst(seen, threats);
  if (eat) choices.push(eat);
  // No melee with a creeper about that outlives its own fuse under the bot's blows: it blows up beside the bot.
  const creeper = threats.find((h) => isCreeper(h) && !killableBeforeBlast(h, seen, weaponOf));
  const fightable = fight !== null && settings.combat === 'auto' && !creeper;
  const healthAfter = seen.bot.health - (fight?.expectedDamage ?? 0);
  if (fight && fightable && healthAfter >= settings.fightHealthFloor)
    choices.push(fightChoice(seen, fight, Math.max(settings.fightHealthFloor, healthAfter - BREAK_OFF_MARGIN)));
  const flight = fleeChoice(seen, threats, creeper, fight, settings);
  const [shelter, ...otherShelters] = shelterChoices(
    seen,
    threats,
    `${countByKind(threats)}; ${whyNotFight(seen, fight, settings)}`,
  );
  // Outnumbered or weak: the best shelter first when the pack holds what it takes, a flight when it does not or the
  // shelter fails. A creeper about is kept at a distance first: its blast reaches into any shelter close by.
  const shelterFirst =
    !threats.some(isCreeper) &&
    (!seen.ground.wayOut || threats.length >= OUTNUMBERED || healthAfter < settings.fightHealthFloor);
  // Shut in (dug in, walled in) with no walk out, a flight has nowhere to go: it would fail at once, and the shelter
  // is held instead (in a night's run a bot in its closed hole was sent to flee a skeleton 7 times in 0 ms).
  const flights = shutIn(seen.ground) ? [] : [flight];
  if (shelter && shelterFirst) choices.push(shelter, ...flights, ...otherShelters);
  else choices.push(...flights, ...(shelter ? [shelter, ...otherShelters] : []));
  return { choices, fight, threats };
}

/** In a shelter that walls the bot in, with no walkable way out of it. */
function shutIn(ground: EncounterObservation['ground']): boolean {
  return (ground.shelter === 'dig_in' || ground.shelter === 'wall_in') && !ground.wayOut;
}

/**
 * The fight with the weapon that costs least: the targets in the order that costs least (killOrder: an archer in
 * sight before the zombie beside it), each killed in turn while every mob still alive hits back at its rate times its
 * kind's contact share. A creeper is a target only when the best weapon kills it before its fuse burns down
 * (killableBeforeBlast); otherwise it is backed off from (fleeChoice).
 */
function estimateFight(
  seen: EncounterObservation,
  threats: readonly HostileSeen[],
  weaponOf: (item: string | null) => WeaponStats,
): FightEstimate | null {
  const fightable = threats.filter((h) => !isCreeper(h) || killableBeforeBlast(h, seen, weaponOf));
  if (fightable.length === 0) return null;
  let best: FightEstimate | null = null;
  const fists = weaponOf(null).damage;
  for (const item of new Set([seen.bot.held, ...seen.bot.pack, null])) {
    // Dirt in hand hits as a fist does: name it so, and equip nothing for it.
    const weapon = weaponOf(item).damage > fists ? item : null;
    const stats = weaponOf(weapon);
    const ordered = killOrder(fightable, seen, stats);
    const joined = joinersOf(seen, ordered, stats);
    const targets = [...ordered, ...joined.joiners];
    const expectedDamage = round(damageWhileKilling(seen, ordered, stats) + joined.damage);
    if (
      !best ||
      expectedDamage < best.expectedDamage ||
      (expectedDamage === best.expectedDamage && weapon === seen.bot.held)
    )
      best = { weapon, damagePerHit: stats.damage, expectedDamage, seconds: round(joined.end), targets };
  }
  return best;
}

/**
 * The order that costs least: the fight's damage is every target's time to reach and kill it, weighted by the health
 * per second of every mob still alive. A mob's weight is the damage per second it lands in the fight: an archer's
 * arrows in full, a walker's blows at its contact share (a skeleton shooting 3.2 every 3 s outweighs a zombie kept at
 * bay by the skill's knock-back), a creeper's blast over its fuse (struck before it can go off). A walker's time
 * depends on how many walkers are left to strike between its returns (secondsToKill), so the order by weight over time
 * (Smith's rule) is only the start: up to EXHAUSTIVE_ORDER targets every order is costed, and the cheapest kept.
 */
function killOrder(targets: readonly HostileSeen[], seen: EncounterObservation, weapon: WeaponStats): HostileSeen[] {
  const walkers = targets.filter((h) => !isArcher(h)).length;
  const priority = (h: HostileSeen) => weight(h, seen) / secondsToKill(h, weapon, walkers);
  const smith = [...targets].sort((a, b) => priority(b) - priority(a) || a.distance - b.distance);
  // A creeper struck is struck first (its blast outweighs every blow): only the others' order is searched.
  const creepers = smith.filter(isCreeper);
  const others = smith.filter((h) => !isCreeper(h));
  if (others.length > EXHAUSTIVE_ORDER) return smith;
  let best = { order: smith, damage: damageWhileKilling(seen, smith, weapon) };
  for (const rest of permutations(others)) {
    const order = [...creepers, ...rest];
    const damage = damageWhileKilling(seen, order, weapon);
    if (damage < best.damage) best = { order, damage };
  }
  return best.order;
}

/** Targets up to this many are ordered by trying every order (6! = 720). */
const EXHAUSTIVE_ORDER = 6;

function* permutations<T>(items: readonly T[]): Generator<T[]> {
  if (items.length <= 1) {
    yield [...items];
    return;
  }
  for (let i = 0; i < items.length; i++)
    for (const rest of permutations([...items.slice(0, i), ...items.slice(i + 1)])) yield [items[i]!, ...rest];
}

/** Health per second a mob takes off the bot in a fight; a creeper the bot kills first, its blast over its fuse. */
function weight(hostile: HostileSeen, seen: EncounterObservation): number {
  const fuse = HOSTILE_STATS[hostile.name]?.fuse;
  if (fuse) return pointBlank(fuse.power) / ((fuse.ticks * TICK_MS) / 1000);
  return damagePerSecond(hostile, seen) * shareLanded(hostile);
}

/**
 * Seconds from the start of a target's turn to its death: the chase to an archer, the swings, the turn to the next.
 * A walker struck is knocked back (the skill's sprint hit: its critical hit needs a mob that stays in reach through
 * the jump, and one just walked into reach does not) and struck again only once it is back in reach
 * (backInReachSeconds: 2.3 s for a zombie); with `walkersAlive` walkers coming back in turn the bot strikes whichever
 * is in reach, so each one's share of that wait is 1 / walkersAlive. Counting the swings alone made a bare-handed
 * fight with a zombie (22 hits) 12 s when it takes some 50 (test/kit/fight-estimate.test.ts), and a second zombie and
 * a skeleton joined it in a night's tech-tree run (world 7), which killed the bot.
 */
function secondsToKill(target: HostileSeen, weapon: WeaponStats, walkersAlive = 1): number {
  const swing = swingGapMs(weapon) / 1000;
  const back = isArcher(target) ? 0 : backInReachSeconds(target.name) / Math.max(1, walkersAlive);
  return chaseSeconds(target) + hitsToKill(target, weapon) * Math.max(swing, back) + RETARGET_S;
}

/**
 * Each target in turn: the time to reach it (an archer's chase) and to kill it, while every mob still alive hits
 * back. A walker lands its kind's contact share of its hits against the fighting skill (contact.ts); an archer's arrows land in full (the
 * skill's back-off keeps walkers at bay, not arrows), the whole time it lives, the chase after it included.
 */
export function damageWhileKilling(
  seen: EncounterObservation,
  targets: readonly HostileSeen[],
  weapon: WeaponStats,
): number {
  const turns = turnSeconds(targets, weapon);
  let total = 0;
  for (let k = 0; k < targets.length; k++)
    for (const alive of targets.slice(k)) total += turns[k]! * damagePerSecond(alive, seen) * shareLanded(alive);
  return round(total);
}

/** Each target's turn in this order, in seconds: its killing while the walkers after it are still about. */
function turnSeconds(targets: readonly HostileSeen[], weapon: WeaponStats): number[] {
  return targets.map((target, k) => secondsToKill(target, weapon, targets.slice(k).filter((h) => !isArcher(h)).length));
}

/**
 * The walkers coming that arrive before the fight ends, soonest first, and the damage they add: each lands its blows
 * from its arrival until it is killed, after those already in the fight (in a night's tech-tree run a bare-handed
 * fight with one zombie, expected to cost 4.5, took 12 when a second one 17 blocks off joined). Each joiner lengthens
 * the fight by its own killing, and so it may be joined by the next, and the ones in the fight hit the whole while.
 */
function joinersOf(
  seen: EncounterObservation,
  inFight: readonly HostileSeen[],
  weapon: WeaponStats,
): { joiners: HostileSeen[]; damage: number; end: number } {
  let end = turnSeconds(inFight, weapon).reduce((sum, seconds) => sum + seconds, 0);
  const coming = seen.hostiles.filter((h) => h.arrivesInS !== undefined).sort((a, b) => a.arrivesInS! - b.arrivesInS!);
  const joiners: HostileSeen[] = [];
  let damage = 0;
  for (const walker of coming) {
    if (walker.arrivesInS! >= end) break;
    end += secondsToKill(walker, weapon);
    joiners.push(walker);
    damage += (end - walker.arrivesInS!) * damagePerSecond(walker, seen) * shareLanded(walker);
  }
  return { joiners, damage, end };
}

/** Share of a mob's hits that land in a fight: every arrow (it shoots from afar), its kind's share of melee blows. */
function shareLanded(hostile: HostileSeen): number {
  return isArcher(hostile) ? 1 : contactShare(hostile.name);
}

/**
 * Seconds the bot walks before an archer is in reach of its sword: the gap closed at the bot's walk less the archer's
 * own (it backs away as it shoots). A walker comes to the bot: no chase.
 */
function chaseSeconds(hostile: HostileSeen): number {
  if (!isArcher(hostile)) return 0;
  const closing = PLAYER_WALK_SPEED - (HOSTILE_STATS[hostile.name]?.speed ?? 0);
  return Math.max(0, hostile.distance - ATTACK_REACH) / Math.max(closing, MIN_CLOSING_SPEED);
}

function isArcher(hostile: HostileSeen): boolean {
  return hostile.reach === 'bow' || HOSTILE_STATS[hostile.name]?.bow !== undefined;
}

/**
 * Time between two swings of a fight: the weapon's cooldown, but never within a mob's hurt immunity (the fight waits
 * ATTACK_COOLDOWN_MS at least, so a hand's 0.25 s swings come every 0.55 s).
 */
function swingGapMs(weapon: WeaponStats): number {
  return Math.max(weapon.cooldownMs, ATTACK_COOLDOWN_MS);
}

/** Full-strength hits that kill `hostile`: its health left (else its kind's at spawn) over a hit after its armour. */
function hitsToKill(hostile: HostileSeen, weapon: WeaponStats): number {
  const health = hostile.health ?? maxHealth(hostile.name);
  return Math.ceil(health / damageToMob(hostile.name, weapon.damage));
}

/**
 * Whether the best weapon at hand kills a creeper before its fuse, lit as it comes within reach, burns down: the first
 * hit lands as it ignites, each next one a cooldown later. One swelling, or within its ignition range when the world
 * does not say whether it swells (its fuse may be half burnt), is never walked up to.
 */
function killableBeforeBlast(
  creeper: HostileSeen,
  seen: EncounterObservation,
  weaponOf: (item: string | null) => WeaponStats,
): boolean {
  const fuse = HOSTILE_STATS[creeper.name]?.fuse;
  if (!fuse) return false;
  const mayBurn = creeper.swelling ?? creeper.distance <= fuse.igniteWithin;
  if (mayBurn) return false;
  return [seen.bot.held, ...seen.bot.pack, null].some((item) => {
    const weapon = weaponOf(item);
    return (hitsToKill(creeper, weapon) - 1) * weapon.cooldownMs < fuse.ticks * TICK_MS;
  });
}

/**
 * Health per second a hostile takes off the bot while it can reach it, after armour. A creeper in a fight is one the
 * bot kills before its blast (killableBeforeBlast), so it costs nothing.
 */
function damagePerSecond(hostile: HostileSeen, seen: EncounterObservation): number {
  const stats: HostileStats | undefined = HOSTILE_STATS[hostile.name];
  if (stats?.fuse) return 0;
  if (hostile.reach === 'bow' || (stats?.bow && !stats.melee)) {
    const interval = stats?.bow ? (stats.bow.drawTicks + stats.bow.intervalTicks) / 20 : 3;
    return damageAfterArmour(ARROW_TYPICAL, seen.bot.armour) / interval;
  }
  const melee = stats?.melee ?? { damage: 3, cooldownTicks: 20 };
  return damageAfterArmour(melee.damage, seen.bot.armour) / (melee.cooldownTicks / 20);
}

function fightChoice(seen: EncounterObservation, fight: FightEstimate, breakOffBelow: number): Choice {
  const target = fight.targets[0]!;
  const what = `${countByKind(fight.targets)}, ${fight.weapon ?? 'bare hands'} ${fight.damagePerHit} per hit`;
  const reason = `${what}, expected ${fight.expectedDamage} damage taken of ${seen.bot.health}`;
  const { weapon } = fight;
  // An archer out of melee reach is charged: attack_entity walks up to it, out of its bow's line as it closes.
  if (target.reach === 'bow' && target.distance > 3)
    return { kind: 'close_in', target, weapon, breakOffBelow, reason: `close in on the ${target.name}: ${reason}` };
  return { kind: 'fight', target, weapon, breakOffBelow, reason };
}

function fleeChoice(
  seen: EncounterObservation,
  threats: readonly HostileSeen[],
  creeper: HostileSeen | undefined,
  fight: FightEstimate | null,
  settings: CombatSettings,
): Choice {
  const from = flightFrom(seen, threats);
  const fuse = creeper ? HOSTILE_STATS[creeper.name]?.fuse : undefined;
  const why =
    creeper && fuse
      ? `a ${creeper.swelling === true ? 'swelling ' : ''}creeper ${creeper.distance.toFixed(1)} blocks away outlives its ${fuse.ticks * TICK_MS} ms fuse under these blows (a blast at point-blank takes ${pointBlank(fuse.power)}); keep beyond ${fuse.defuseBeyond}, where its fuse goes out`
      : whyNotFight(seen, fight, settings);
  const archersOnly = threats.every((h) => h.reach === 'bow');
  const verb = archersOnly ? 'out of the archers’ sight' : 'away from all';
  const distance = threats.some((h) => h.reach === 'bow') ? ARCHER_CLEARANCE : CHASER_CLEARANCE;
  const clearOf = [...new Set(threats.map((h) => h.name))];
  const reason = `flee ${verb}: ${countByKind(threats)}; ${why}${underArrows(seen, threats)}`;
  return { kind: 'flee', from, clearOf, distance, reason };
}

/** Headings a flight's way is chosen among: sixteen, a compass's. */
const FLIGHT_HEADINGS = Array.from({ length: 16 }, (_, i) => ({
  x: Math.cos((i * Math.PI) / 8),
  z: Math.sin((i * Math.PI) / 8),
}));
/** A flight from chasers runs about twice its clearance (flee: they follow at half the bot's pace). */
const FLIGHT_REACH = 2;
/** Blocks behind the bot the flight's point is put. */
const FROM_BEHIND = 4;

/**
 * The point a flight runs from. Away from the threats' centre, unless that way leads towards another hostile: every
 * hostile known (those beyond the encounter's radius too) is weighed by how near the flight's end it would be to
 * reaching it there (an archer within its bow's range, a creeper within its fuse's, a walker at the spot), and the
 * heading whose end is furthest from all of them is taken among those that gain ground on the threats, the one most
 * directly away from them among equals.
 * In a night's tech-tree run (world 7) a flight from a zombie ran straight at a skeleton 23 blocks off, beyond the
 * radius, which shot the bot. Without the bot's position, the threats' centre.
 */
function flightFrom(seen: EncounterObservation, threats: readonly HostileSeen[]): { x: number; y: number; z: number } {
  const centre = centroid(threats);
  const at = seen.bot.position;
  if (!at) return centre;
  const length = FLIGHT_REACH * (threats.some(isArcher) ? ARCHER_CLEARANCE : CHASER_CLEARANCE);
  const away = { x: at.x - centre.x, z: at.z - centre.z };
  const norm = Math.hypot(away.x, away.z) || 1;
  const score = (heading: { x: number; z: number }) => {
    const end = { x: at.x + heading.x * length, z: at.z + heading.z * length };
    const margin = Math.min(
      ...seen.hostiles.map((h) => Math.hypot(h.position.x - end.x, h.position.z - end.z) - dangerRadius(h)),
    );
    return Math.min(margin, length) + ((heading.x * away.x + heading.z * away.z) / norm) * 1e-3;
  };
  // Never a heading towards the threats: each one gains ground on them (flee's own headings keep within 60°).
  const ways = FLIGHT_HEADINGS.filter((h) => h.x * away.x + h.z * away.z >= -1e-9);
  const best = ways.reduce((a, b) => (score(b) > score(a) ? b : a));
  // A few blocks behind the bot, so that flee's heading from that cell's centre is this one within a few degrees.
  return { x: at.x - best.x * FROM_BEHIND, y: at.y, z: at.z - best.z * FROM_BEHIND };
}

/** How far from a hostile a spot is still in its reach: an archer's bow range, a creeper's fuse, a walker's arm. */
function dangerRadius(hostile: HostileSeen): number {
  const stats = HOSTILE_STATS[hostile.name];
  return stats?.bow?.range ?? stats?.fuse?.defuseBeyond ?? ATTACK_REACH;
}

/**
 * What a flight costs under arrows, for its reason: each archer in sight shoots while the bot is within its bow's
 * range, the gap to that range opened at the bot's walk (the archer stands and shoots within its range and walks after
 * the bot beyond it). Walkers are slower than the bot and land nothing on a flight. Empty without an archer in range.
 */
function underArrows(seen: EncounterObservation, threats: readonly HostileSeen[]): string {
  let seconds = 0;
  let damage = 0;
  for (const archer of threats.filter((h) => h.reach === 'bow')) {
    const range = HOSTILE_STATS[archer.name]?.bow?.range ?? ARCHER_CLEARANCE;
    const inSight = Math.max(0, range - archer.distance) / PLAYER_WALK_SPEED;
    seconds = Math.max(seconds, inSight);
    damage += inSight * damagePerSecond(archer, seen);
  }
  return seconds > 0
    ? `; the flight is in an archer's sight for ${round(seconds)} s: expected ${round(damage)} from arrows`
    : '';
}

function whyNotFight(seen: EncounterObservation, fight: FightEstimate | null, settings: CombatSettings): string {
  if (settings.combat === 'avoid') return 'the policy avoids fights';
  if (!fight) return 'nothing here can be fought in melee';
  const weapon = `${fight.weapon ?? 'bare hands'} ${fight.damagePerHit} per hit`;
  return `a fight (${weapon}) is expected to take ${fight.expectedDamage} of ${seen.bot.health} health, below the floor of ${settings.fightHealthFloor}`;
}

/** Eat before anything else when hurt, something to eat is in the pack and every threat is still far. */
function eatFirst(seen: EncounterObservation, threats: readonly HostileSeen[]): Choice | null {
  const food = seen.bot.foods[0];
  if (!food || seen.bot.health >= FULL_HEALTH / 2 || seen.bot.food >= FULL_HEALTH) return null;
  const clear = threats.every((h) => h.reach !== 'bow' && h.distance >= EAT_CLEARANCE);
  if (!clear) return null;
  return {
    kind: 'eat',
    food,
    reason: `eat ${food} first: health ${seen.bot.health}, every hostile ${EAT_CLEARANCE}+ blocks off`,
  };
}

function isCreeper(hostile: HostileSeen): boolean {
  return hostile.reach === 'explosion' || HOSTILE_STATS[hostile.name]?.fuse !== undefined;
}

/** A blast of `power` on a body it sees whole, at its centre (vanilla's explosion: 43 for a creeper's 3). */
function pointBlank(power: number): number {
  return Math.round(blastDamage(power, 0, 1));
}

/** The threats' centre: a flight starts from it, a bot out of its shelter steps out away from it. */
export function centroid(hostiles: readonly HostileSeen[]): { x: number; y: number; z: number } {
  const sum = hostiles.reduce((s, h) => ({ x: s.x + h.position.x, y: s.y + h.position.y, z: s.z + h.position.z }), {
    x: 0,
    y: 0,
    z: 0,
  });
  const n = hostiles.length;
  return { x: sum.x / n, y: sum.y / n, z: sum.z / n };
}

/** "3 zombies", "2 zombies and a skeleton". */
export function countByKind(hostiles: readonly { name: string }[]): string {
  const counts = new Map<string, number>();
  for (const h of hostiles) counts.set(h.name, (counts.get(h.name) ?? 0) + 1);
  const parts = [...counts].map(([name, n]) => (n === 1 ? `a ${name}` : `${n} ${name}s`));
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : parts[0]!;
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
