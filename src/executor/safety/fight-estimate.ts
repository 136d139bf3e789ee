import { ATTACK_COOLDOWN_MS, ATTACK_REACH, PLAYER_WALK_SPEED } from '../../world/actuator-rules.js';
import {
  blastDamage,
  damageAfterArmour,
  damageToMob,
  HOSTILE_STATS,
  type HostileStats,
  maxHealth,
  TICK_MS,
} from '../../world/mob-rules/index.js';
import { backInReachSeconds, contactShare, KNOCKED_BACK } from './contact.js';
import {
  type CombatSettings,
  type EncounterObservation,
  type FightEstimate,
  type HostileSeen,
  isArcher,
  isCreeper,
  round,
  type WeaponStats,
} from './observation.js';

/*
 * What a fight would cost (assess.ts weighs it against a flight and a shelter): the weapon, the order of the
 * targets, the seconds and the damage taken, the walkers that join it; and whether a creeper dies before its fuse.
 */

/** Seconds a fight spends walking from one target to the next. */
const RETARGET_S = 0.5;
/** An archer as fast as the bot is still caught up with, slowly: it stops to draw. */
const MIN_CLOSING_SPEED = 0.5;
/** An arrow from a full draw: 4 most often (mob-rules' arrowDamage draws 3 to 5). */
const ARROW_TYPICAL = 4;

/**
 * The fight with the weapon that costs least: the targets in the order that costs least (killOrder: an archer in
 * sight before the zombie beside it), each killed in turn while every mob still alive hits back at its rate times its
 * kind's contact share. A creeper is a target only when the best weapon kills it before its fuse burns down
 * (killableBeforeBlast); otherwise it is backed off from (fleeChoice).
 */
export function estimateFight(
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
    // A creeper costs nothing in the estimate, so only a weapon that kills it safely may be the fight's (in a night's
    // world 4 the held wooden pickaxe's 10 hits were chosen over the wooden sword in the pack that made it a fight).
    if (!fightable.every((h) => killsBeforeBlast(h, stats))) continue;
    const ordered = killOrder(fightable, seen, stats);
    const run = fightTimeline(seen, ordered, stats, comingWalkers(seen));
    const targets = [...ordered, ...run.joiners];
    const expectedDamage = run.damage;
    if (
      !best ||
      expectedDamage < best.expectedDamage ||
      (expectedDamage === best.expectedDamage && weapon === seen.bot.held)
    )
      best = { weapon, damagePerHit: stats.damage, expectedDamage, seconds: run.end, targets };
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
export function killOrder(
  targets: readonly HostileSeen[],
  seen: EncounterObservation,
  weapon: WeaponStats,
): HostileSeen[] {
  const walkers = targets.filter((h) => !isArcher(h)).length;
  const priority = (h: HostileSeen) => weight(h, seen) / secondsToKill(h, weapon, walkers);
  const smith = [...targets].sort((a, b) => priority(b) - priority(a) || a.distance - b.distance);
  // A creeper struck is struck first (its blast outweighs every blow): only the others' order is searched.
  const creepers = smith.filter(isCreeper);
  const others = smith.filter((h) => !isCreeper(h));
  if (others.length > EXHAUSTIVE_ORDER) return smith;
  let best = { order: smith, damage: damageWhileKilling(seen, smith, weapon) };
  for (const rest of distinctOrders(others)) {
    const order = [...creepers, ...rest];
    const damage = damageWhileKilling(seen, order, weapon);
    if (damage < best.damage) best = { order, damage };
  }
  return best.order;
}

/** Targets up to this many are ordered by trying every order (6! = 720). */
const EXHAUSTIVE_ORDER = 6;

/**
 * Every order of `mobs` that a fight's timeline can tell apart: two mobs it reads alike (a kind, its reach, its health
 * and, for an archer, its distance, the chase) are never swapped, the nearer first as the Smith order has them. A
 * night's crowd of fresh zombies is one order, not 720.
 */
function* distinctOrders(mobs: readonly HostileSeen[]): Generator<HostileSeen[]> {
  if (mobs.length <= 1) {
    yield [...mobs];
    return;
  }
  const tried = new Set<string>();
  for (let i = 0; i < mobs.length; i++) {
    const key = timelineKey(mobs[i]!);
    if (tried.has(key)) continue;
    tried.add(key);
    for (const rest of distinctOrders([...mobs.slice(0, i), ...mobs.slice(i + 1)])) yield [mobs[i]!, ...rest];
  }
}

/** What fightTimeline reads of a mob (its kind's stats, its reach, its health; an archer's distance for the chase). */
const timelineKey = (mob: HostileSeen) =>
  `${mob.name}|${mob.reach}|${mob.health}${isArcher(mob) ? `|${mob.distance}` : ''}`;

/** Health per second a mob takes off the bot in a fight; a creeper the bot kills first, its blast over its fuse. */
export function weight(hostile: HostileSeen, seen: EncounterObservation): number {
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
export function secondsToKill(target: HostileSeen, weapon: WeaponStats, walkersAlive = 1): number {
  return chaseSeconds(target) + hitsToKill(target, weapon) * swingSeconds(target, weapon, walkersAlive) + RETARGET_S;
}

/** Seconds one hit on `target` takes: the weapon's swing, or a walker's share of the wait for it to come back. */
function swingSeconds(target: HostileSeen, weapon: WeaponStats, walkersAlive: number): number {
  const back = isArcher(target) ? 0 : backInReachSeconds(target.name) / Math.max(1, walkersAlive);
  return Math.max(swingGapMs(weapon) / 1000, back);
}

/** The walkers beyond the encounter on their way (arrivesInS): the ones a long fight is joined by. */
const comingWalkers = (seen: EncounterObservation) => seen.hostiles.filter((h) => h.arrivesInS !== undefined);

/** What a fight in one order costs as it runs (fightTimeline). */
export interface FightRun {
  /** Health the bot is expected to lose. */
  damage: number;
  /** Seconds from the first swing to the last target's death. */
  end: number;
  /** The walkers coming that join before the fight ends, in the order they come. */
  joiners: HostileSeen[];
}

/**
 * The damage a fight in this order costs, every target killed in turn while every mob still alive hits back
 * (fightTimeline, with no walker coming).
 */
export function damageWhileKilling(
  seen: EncounterObservation,
  targets: readonly HostileSeen[],
  weapon: WeaponStats,
): number {
  return fightTimeline(seen, targets, weapon).damage;
}

/**
 * The fight as it runs, swing by swing: each target in turn, the chase to an archer, its hits, the turn to the next.
 * Every mob alive in the fight hits back the whole while: an archer's arrows in full, a walker's blows at its kind's
 * contact share (contact.ts). A hit on a walker waits for it to come back into reach, a wait shared by every walker in
 * the fight (secondsToKill). A walker coming (`coming`, arrivesInS) joins at the first swing after it arrives: from
 * then on it hits back, shares the waits and is killed after the targets before it. So a walker still coming never
 * costs more than the same walker in the fight from the start; counted apart from the fight, a zombie 18 blocks off
 * made three zombies and it cost 15.4 where the four of them at hand cost 12.3, and a stone-swordsman fled four
 * zombies at full health five times in a night's run, never shaking them off.
 */
export function fightTimeline(
  seen: EncounterObservation,
  order: readonly HostileSeen[],
  weapon: WeaponStats,
  coming: readonly HostileSeen[] = [],
): FightRun {
  const queue = [...order];
  const inFight = new Set(order);
  const waiting = [...coming].sort((a, b) => a.arrivesInS! - b.arrivesInS!);
  const joiners: HostileSeen[] = [];
  let [clock, damage] = [0, 0];
  // What the mobs in the fight take off the bot a second, and how many walkers share the waits: read again only as
  // one joins or dies (a bare-handed crowd is some 20 swings a mob, and killOrder runs this for up to 720 orders).
  const rateOf = new Map([...order, ...coming].map((mob) => [mob, damagePerSecond(mob, seen) * shareLanded(mob)]));
  let [rate, walkers] = [0, 0];
  const recount = () => {
    [rate, walkers] = [0, 0];
    for (const mob of inFight) {
      rate += rateOf.get(mob)!;
      if (!isArcher(mob)) walkers++;
    }
  };
  const pass = (seconds: number) => {
    damage += seconds * rate;
    clock += seconds;
  };
  const admitArrived = () => {
    let admitted = false;
    while (waiting.length > 0 && waiting[0]!.arrivesInS! <= clock) {
      const walker = waiting.shift()!;
      [queue, joiners].forEach((list) => list.push(walker));
      inFight.add(walker);
      admitted = true;
    }
    if (admitted) recount();
  };
  recount();
  for (let k = 0; k < queue.length; k++) {
    const target = queue[k]!;
    pass(chaseSeconds(target));
    for (let hits = hitsToKill(target, weapon); hits > 0;) {
      admitArrived();
      const gap = swingSeconds(target, weapon, walkers);
      // The swings until the next walker coming has arrived (it joins at the first one after), at one gap each.
      const next = waiting[0]?.arrivesInS;
      const swings = next === undefined ? hits : Math.min(hits, Math.max(1, Math.ceil((next - clock) / gap)));
      pass(swings * gap);
      hits -= swings;
    }
    pass(RETARGET_S);
    inFight.delete(target);
    recount();
    // One arriving as the last target falls still joins: the fight is not over while it walks in.
    if (k === queue.length - 1) admitArrived();
  }
  return { damage: round(damage), end: round(clock), joiners };
}

/** Share of a mob's hits that land in a fight: every arrow (it shoots from afar), its kind's share of melee blows. */
export function shareLanded(hostile: HostileSeen): number {
  return isArcher(hostile) ? 1 : contactShare(hostile.name);
}

/**
 * Seconds the bot walks before an archer is in reach of its sword: the gap closed at the bot's walk less the archer's
 * own (it backs away as it shoots). A walker comes to the bot: no chase.
 */
export function chaseSeconds(hostile: HostileSeen): number {
  if (!isArcher(hostile)) return 0;
  const closing = PLAYER_WALK_SPEED - (HOSTILE_STATS[hostile.name]?.speed ?? 0);
  return Math.max(0, hostile.distance - ATTACK_REACH) / Math.max(closing, MIN_CLOSING_SPEED);
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
 * Hits at most a creeper is struck and backed off from (a wooden sword's 5): each sprint hit puts its fuse out, but
 * each is one more chance that a wall or a tree stops the knock-back short of its defuse range.
 */
const MAX_DEFUSING_HITS = 5;

/**
 * Whether the best weapon at hand kills a creeper before it can blow up: before its fuse, lit as it comes within
 * reach, burns down (the first hit lands as it ignites, each next one a cooldown later); or in a few hits that each put
 * its fuse out, a sprint hit as it ignites knocking it from its ignition range past its defuse range (3 + 5.3 > 7: the
 * skill strikes a creeper sprinting and backs off from one that swells, src/kit/fight-moves.ts). One swelling, or
 * within its ignition range when the world does not say whether it swells (its fuse may be half burnt), is never
 * walked up to.
 */
export function killableBeforeBlast(
  creeper: HostileSeen,
  seen: EncounterObservation,
  weaponOf: (item: string | null) => WeaponStats,
): boolean {
  const fuse = HOSTILE_STATS[creeper.name]?.fuse;
  if (!fuse) return false;
  const mayBurn = creeper.swelling ?? creeper.distance <= fuse.igniteWithin;
  if (mayBurn) return false;
  return [seen.bot.held, ...seen.bot.pack, null].some((item) => killsBeforeBlast(creeper, weaponOf(item)));
}

/** Whether this weapon kills a creeper (not yet burning) before its fuse, or in a few hits that each put it out. */
function killsBeforeBlast(creeper: HostileSeen, weapon: WeaponStats): boolean {
  const fuse = HOSTILE_STATS[creeper.name]?.fuse;
  if (!fuse) return true;
  const eachHitDefuses = fuse.igniteWithin + KNOCKED_BACK > fuse.defuseBeyond;
  const hits = hitsToKill(creeper, weapon);
  return (hits - 1) * weapon.cooldownMs < fuse.ticks * TICK_MS || (eachHitDefuses && hits <= MAX_DEFUSING_HITS);
}

/**
 * Health per second a hostile takes off the bot while it can reach it, after armour. A creeper in a fight is one the
 * bot kills before its blast (killableBeforeBlast), so it costs nothing.
 */
export function damagePerSecond(hostile: HostileSeen, seen: EncounterObservation): number {
  const stats: HostileStats | undefined = HOSTILE_STATS[hostile.name];
  if (stats?.fuse) return 0;
  if (hostile.reach === 'bow' || (stats?.bow && !stats.melee)) {
    const interval = stats?.bow ? (stats.bow.drawTicks + stats.bow.intervalTicks) / 20 : 3;
    return arrowHit(seen) / interval;
  }
  const melee = stats?.melee ?? { damage: 3, cooldownTicks: 20 };
  return damageAfterArmour(melee.damage, seen.bot.armour) / (melee.cooldownTicks / 20);
}

/** One arrow from a full draw, after the bot's armour. */
export function arrowHit(seen: EncounterObservation): number {
  return damageAfterArmour(ARROW_TYPICAL, seen.bot.armour);
}

export function whyNotFight(seen: EncounterObservation, fight: FightEstimate | null, settings: CombatSettings): string {
  if (settings.combat === 'avoid') return 'the policy avoids fights';
  const unreachable = seen.hostiles.find((h) => h.unreachable === true && h.reach !== 'none');
  if (unreachable) return `the ${unreachable.name} cannot be reached (a close-in on it found no way up to it)`;
  if (!fight) return 'nothing here can be fought in melee';
  const weapon = `${fight.weapon ?? 'bare hands'} ${fight.damagePerHit} per hit`;
  return `a fight (${weapon}) is expected to take ${fight.expectedDamage} of ${seen.bot.health} health, below the floor of ${settings.fightHealthFloor}`;
}

/** A blast of `power` on a body it sees whole, at its centre (vanilla's explosion: 43 for a creeper's 3). */
export function pointBlank(power: number): number {
  return Math.round(blastDamage(power, 0, 1));
}
