import { HOSTILE_STATS } from '../../world/mob-rules/index.js';
import { ATTACK_REACH } from '../../world/actuator-rules.js';
import { arrowHit, damagePerSecond } from './fight-estimate.js';
import { arrowsOnFlight, keepsPace, FLIGHT_SECONDS } from './flight.js';
import type { EncounterObservation, FightEstimate, HostileSeen } from './observation.js';
import { DIG_IN_MAX_MS, HOLE_CLOSING_MS, shelterVerbs, type ShelterVerb } from './shelters.js';

/*
 * What comes after a fight that goes worse than judged: the health each way out costs with the fight's mobs on the
 * bot, and from it the health at which the fight breaks off, early enough that the cheapest way out still works. In
 * world 1 of a night's tech-tree run a fight with two zombies, broken off at the floor of 6, left the bot at 3: its
 * flight found no path and it died. A player who is losing backs off while a way out still works.
 */

/** What a way out costs: the health the mobs about take off the bot while it gets away. */
export interface EscapeCost {
  kind: 'flee' | ShelterVerb;
  cost: number;
}

/**
 * Seconds the bot stays in a walker's reach while it builds each shelter: a pillar's first two blocks (a jump and a
 * placement each, about half a second: two blocks up no walker reaches it), a wall's eight placements, a hole's digs
 * and closing (the ground's measure, else the longest dig_in allows).
 */
const PILLAR_EXPOSED_S = 1;
const WALL_EXPOSED_S = 2;

/**
 * The cost of each way out the encounter leaves once a fight has broken off, cheapest first: a flight, and every
 * shelter the assessment would offer then. A broken-off fight has its threats within sword's reach (its walkers on the
 * bot, its archers walked up to), wherever they stand now, so these are read from that encounter, not from this one: a
 * hole is no way out with a walker beside it (it walks in before the top is closed), a pillar none with an archer in
 * its range. So one more mob never adds a way out nor makes one cheaper, and never turns a flight into a fight (the
 * property's counterexample: a spider and a zombie, a hole of 50 ms that set the break-off above the bot's 9 health;
 * a zombie more, right beside the bot, took the hole out of the shelters offered now, and with it the reserve).
 *
 * A flight is priced from the walkers it outruns (the ground's straight reading is rough, and flee tries three
 * headings): each lands one blow as the bot turns away, no more. What keeps pace (a spider) is no way out of: it is
 * fought after the flight (flee.ts judges a flight clear of what it outruns only), so with nothing but such in the
 * pack there is no flight. An archer shoots while the bot is in its range, the whole of it from sword's reach out
 * (priced from where the archer stood when the fight began, the way back was left out: in world 1 of a night's
 * tech-tree run a close-in on a skeleton broke off at 6, read 4, and fled 2.8 s under arrows). While a shelter is
 * built every walker about lands its blows at its full rate (the fight's knock-backs are over), an archer its arrows.
 */
export function escapeCosts(seen: EncounterObservation, threats: readonly HostileSeen[]): EscapeCost[] {
  const outrun = threats.filter((h) => !keepsPace(h));
  const costs: EscapeCost[] = outrun.length > 0 ? [{ kind: 'flee', cost: flightCost(seen, outrun) }] : [];
  for (const verb of shelterVerbs(afterBreakOff(seen, threats), threats))
    costs.push({ kind: verb, cost: exposedCost(seen, threats, exposedSeconds(verb, seen)) });
  return costs.sort((a, b) => a.cost - b.cost);
}

/** The encounter as a broken-off fight leaves it: each threat within sword's reach of the bot. */
function afterBreakOff(seen: EncounterObservation, threats: readonly HostileSeen[]): EncounterObservation {
  const fought = new Set(threats.map((h) => h.id));
  const hostiles = seen.hostiles.map((h) =>
    fought.has(h.id) ? { ...h, distance: Math.min(h.distance, ATTACK_REACH) } : h,
  );
  return { ...seen, hostiles };
}

/**
 * The health below which a fight breaks off: never under the floor, never more than two zombie blows under the
 * estimate's end (`margin`), and with enough left for the cheapest way out (`escape`, null for none) plus the biggest
 * blow or arrow that may land between two readings of the bot's health (on the embedded server a break-off at 6 read
 * 3; a close-in on a skeleton broken off at 6 read 4).
 */
export function breakOffPoint(
  seen: EncounterObservation,
  fight: FightEstimate,
  floor: number,
  margin: number,
  escape: { cost: number; from: readonly HostileSeen[] } | null,
): number {
  const healthAfter = seen.bot.health - fight.expectedDamage;
  const reserve = escape ? escape.cost + biggestBlow(seen, escape.from) : 0;
  return round1(Math.max(floor, healthAfter - margin, reserve));
}

function flightCost(seen: EncounterObservation, threats: readonly HostileSeen[]): number {
  let cost = arrowsOnFlight(seen, threats.map(atSwordReach)).damage;
  for (const walker of threats.filter(isWalker))
    cost += keepsPace(walker) ? damagePerSecond(walker, seen) * FLIGHT_SECONDS : blow(walker, seen);
  return cost;
}

/** Every walker's blows over `seconds` (one at least), every archer's arrows. */
function exposedCost(seen: EncounterObservation, threats: readonly HostileSeen[], seconds: number): number {
  let cost = 0;
  for (const h of threats)
    cost += isWalker(h) ? Math.max(blow(h, seen), damagePerSecond(h, seen) * seconds) : archerCost(h, seen, seconds);
  return cost;
}

function exposedSeconds(verb: ShelterVerb, seen: EncounterObservation): number {
  if (verb === 'pillar_up') return PILLAR_EXPOSED_S;
  if (verb === 'wall_in') return WALL_EXPOSED_S;
  return ((seen.ground.digIn?.ms ?? DIG_IN_MAX_MS) + HOLE_CLOSING_MS) / 1000;
}

function archerCost(hostile: HostileSeen, seen: EncounterObservation, seconds: number): number {
  return hostile.reach === 'bow' ? damagePerSecond(hostile, seen) * seconds : 0;
}

/** One melee blow of a walker, after the bot's armour. */
function blow(hostile: HostileSeen, seen: EncounterObservation): number {
  const cooldownS = (HOSTILE_STATS[hostile.name]?.melee?.cooldownTicks ?? 20) / 20;
  return damagePerSecond(hostile, seen) * cooldownS;
}

/** A walker's blow, or an archer's arrow: what may land between two readings of the bot's health. */
function biggestBlow(seen: EncounterObservation, mobs: readonly HostileSeen[]): number {
  return Math.max(0, ...mobs.map((h) => (isWalker(h) ? blow(h, seen) : h.reach === 'bow' ? arrowHit(seen) : 0)));
}

/** An archer as the fight leaves it: at sword's reach, where the fight walks up to it. */
function atSwordReach(hostile: HostileSeen): HostileSeen {
  return hostile.reach === 'bow' ? { ...hostile, distance: Math.min(hostile.distance, ATTACK_REACH) } : hostile;
}

const isWalker = (hostile: HostileSeen) => hostile.reach === 'melee';
const round1 = (n: number) => Math.ceil(n * 10) / 10;
