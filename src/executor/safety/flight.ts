import { ATTACK_REACH } from '../../world/actuator-rules.js';
import { HOSTILE_STATS, TICK_MS } from '../../world/mob-rules/index.js';
import { PLAYER_WALK_SPEED } from '../../world/actuator-rules.js';
import { damagePerSecond, pointBlank, whyNotFight } from './fight-estimate.js';
import {
  centroid,
  type Choice,
  type CombatSettings,
  countByKind,
  type EncounterObservation,
  type FightEstimate,
  type HostileSeen,
  isCreeper,
  round,
} from './observation.js';

/*
 * A flight (assess.ts ranks it): the point it runs from, chosen so that its end is clear of every hostile known,
 * and how far it must end from the threats.
 */

/** A flight from walkers ends this far clear of every one: twice a zombie's notice of a close bot (hostileRadius). */
const CHASER_CLEARANCE = 10;
/** With an archer among them, past its bow's range (15). */
const ARCHER_CLEARANCE = 16;
/**
 * With a creeper among them, past its follow range (16), where it lets the bot go: ended 10 blocks off, a creeper
 * walked after the bot and was within the monitor's 5 blocks again a few seconds later (the night tech-tree bench's
 * world 4 fled creepers 9 times).
 */
const CREEPER_CLEARANCE = HOSTILE_STATS.creeper!.followRange + 1;

/**
 * Whether a flight never shakes this hostile off: a leaper within its leap's range (2 to 4 blocks) takes back more
 * than the bot's faster walk opens, a climber goes straight over what the bot walks round. On the embedded server a
 * spider (3.9 blocks/s to a player's 4.3) kept pace with a fleeing bot at 1.3 to 2.5 blocks and bit it on the way.
 * By kind, not by gap: one 5 blocks off or more is left behind on flat ground (test/world/sim-spider-pace.test.ts).
 */
export function keepsPace(hostile: { name: string }): boolean {
  const stats = HOSTILE_STATS[hostile.name];
  return stats?.leaps === true || stats?.climbs === true;
}

export function fleeChoice(
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
  const distance = clearance(threats);
  // Judged clear of what it can outrun: a spider keeps pace, and the bot fights it once the others are left behind.
  const outrun = threats.filter((h) => !keepsPace(h));
  const clearOf = [...new Set((outrun.length > 0 ? outrun : threats).map((h) => h.name))];
  // What it cannot outrun it strikes when it catches up, with the weapon a fight would draw.
  const strikeBack = [...new Set(threats.filter(keepsPace).map((h) => h.name))];
  const reason = `flee ${verb}: ${countByKind(threats)}; ${why}${underArrows(seen, threats)}`;
  const breakOffBelow = flightBreakOff(seen, threats);
  // Its way was chosen from every hostile seen (the threats, and those a flight may end at): any other is new to it.
  const judgedOn = seen.hostiles.map((h) => h.id);
  const weapon = fight?.weapon ?? null;
  return { kind: 'flee', from, clearOf, strikeBack, weapon, distance, breakOffBelow, judgedOn, reason };
}

/** What the flight may cost under arrows beyond its estimate before it is judged again: the most an arrow takes. */
const FLIGHT_DAMAGE_MARGIN = 5;

/**
 * The health below which a flight under arrows breaks off to be judged again (0: never): the estimate's arrows and an
 * arrow more. In server tech-tree world 10 a flight "in an archer's sight for 2.7 s: expected 3.6 from arrows" ran on
 * for 16 s with the skeleton following and shooting, and the bot died in it, from 20 health; judged again at 11, a
 * hole under a closed top keeps the arrows out. Walkers it outruns (or strikes back at) are not priced by the hit.
 */
export function flightBreakOff(seen: EncounterObservation, threats: readonly HostileSeen[]): number {
  if (!threats.some((h) => h.reach === 'bow')) return 0;
  const { damage } = arrowsOnFlight(seen, threats);
  return Math.max(0, round(seen.bot.health - damage - FLIGHT_DAMAGE_MARGIN));
}

/** How far a flight must end from the threats: past a creeper's follow range, an archer's bow, a walker's notice. */
export function clearance(threats: readonly HostileSeen[]): number {
  if (threats.some(isCreeper)) return CREEPER_CLEARANCE;
  return threats.some((h) => h.reach === 'bow') ? ARCHER_CLEARANCE : CHASER_CLEARANCE;
}

/** Headings a flight's way is chosen among: sixteen, a compass's. */
const FLIGHT_HEADINGS = Array.from({ length: 16 }, (_, i) => ({
  x: Math.cos((i * Math.PI) / 8),
  z: Math.sin((i * Math.PI) / 8),
}));
/** A flight from chasers runs about twice its clearance (flee: they follow at half the bot's pace). */
const FLIGHT_REACH = 2;
/** Seconds a flight from walkers lasts: twice their clearance at the bot's walk (what a spider bites it for). */
export const FLIGHT_SECONDS = (FLIGHT_REACH * CHASER_CLEARANCE) / PLAYER_WALK_SPEED;
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
export function flightFrom(
  seen: EncounterObservation,
  threats: readonly HostileSeen[],
): { x: number; y: number; z: number } {
  const centre = centroid(threats);
  const at = seen.bot.position;
  if (!at) return centre;
  const length = FLIGHT_REACH * clearance(threats);
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
export function dangerRadius(hostile: HostileSeen): number {
  const stats = HOSTILE_STATS[hostile.name];
  return stats?.bow?.range ?? stats?.fuse?.defuseBeyond ?? ATTACK_REACH;
}

/**
 * What a flight costs under arrows: each archer in sight shoots while the bot is within its bow's range, the gap to
 * that range opened at the bot's walk (the archer stands and shoots within its range and walks after the bot beyond
 * it). Walkers are slower than the bot and land nothing on a flight.
 */
export function arrowsOnFlight(
  seen: EncounterObservation,
  threats: readonly HostileSeen[],
): { seconds: number; damage: number } {
  let seconds = 0;
  let damage = 0;
  for (const archer of threats.filter((h) => h.reach === 'bow')) {
    const range = HOSTILE_STATS[archer.name]?.bow?.range ?? ARCHER_CLEARANCE;
    const inSight = Math.max(0, range - archer.distance) / PLAYER_WALK_SPEED;
    seconds = Math.max(seconds, inSight);
    damage += inSight * damagePerSecond(archer, seen);
  }
  return { seconds, damage };
}

/** The flight's cost under arrows for its reason; empty without an archer in range. */
export function underArrows(seen: EncounterObservation, threats: readonly HostileSeen[]): string {
  const { seconds, damage } = arrowsOnFlight(seen, threats);
  return seconds > 0
    ? `; the flight is in an archer's sight for ${round(seconds)} s: expected ${round(damage)} from arrows`
    : '';
}
