import {
  AIR_DRAG,
  HOSTILE_STATS,
  type HostileStats,
  KNOCKBACK_STRENGTH,
  knockbackDistance,
  LEAP_SPEED,
  SPRINT_KNOCKBACK_STRENGTH,
  TICK_MS,
  TICKS_PER_SECOND,
} from '../../world/mob-rules/index.js';

/*
 * The share of its melee hits a mob lands in a fight, by kind (the assessment's fight estimate).
 */

/**
 * A zombie's share: the bot strikes each mob as it walks into reach, at full charge and sprinting (knocked back about
 * 5 blocks, it must walk in again), and steps back from the crowd while its weapon recharges (src/kit/fight-moves.ts),
 * so a zombie lands a hit only when several arrive at once. A calibration, not a rule of the game, measured on the
 * embedded server with vanilla combat (src/world/mob-rules/combat.ts):
 * `npm run bench -- night --placements 2 --rows zombies-2/stone,zombies-4/stone` (a stone sword and leather) cost a
 * median 5.8 and 4.7 for two zombies and 0.0 and 2.3 for four in two runs, 2 of 2 completed in each row; 0.12 puts the
 * estimates at 3.1 and 10.2, above the damage both rows took together and low enough that four zombies against a
 * stone sword are a fight. With the fight before this skill (following each knocked-back mob) the share was 0.4, and
 * three zombies were a flight.
 */
export const ZOMBIE_CONTACT_SHARE = 0.1;

/** Blocks a sprint hit pushes a mob (about 5.3): the gap it must close again before it can strike. */
export const KNOCKED_BACK = knockbackDistance(KNOCKBACK_STRENGTH / 2 + SPRINT_KNOCKBACK_STRENGTH);

/**
 * The share of its hits a melee kind lands, derived from the zombie's calibration by how fast the kind comes back
 * into reach after a sprint hit: a mob's contact with the bot is the part of each swing cycle it spends in reach, and
 * the skill's knockback leaves it out of reach for the time it takes to close KNOCKED_BACK. So a kind's share is the
 * zombie's times the zombie's return time over the kind's (at most 1). From mob-rules' stats: a zombie walks 2.3
 * blocks/s and comes back in 2.3 s (0.12); a spider walks 3.9 blocks/s and covers the last 2.4 blocks in a leap of 8
 * ticks, back in 1.1 s (0.24); a husk walks as a zombie does and does not leap (0.12: it differs in the sun and in
 * the hunger its hit gives, not in contact); a creeper walks 2.6 blocks/s. A kind whose fighting is not modelled counts
 * as a zombie.
 */
export function contactShare(name: string): number {
  const stats = HOSTILE_STATS[name];
  const zombie = HOSTILE_STATS.zombie;
  if (!stats || !zombie) return ZOMBIE_CONTACT_SHARE;
  return Math.min(1, (ZOMBIE_CONTACT_SHARE * returnSeconds(zombie)) / returnSeconds(stats));
}

/**
 * The least time between two of the skill's sprint hits on one melee mob (a kind whose fighting is not modelled counts
 * as a zombie), as the skill does not follow a mob that comes back: knocked back about 5.3 blocks, it must walk in
 * again (a zombie's 2.3 s, four times a stone sword's cooldown).
 */
export function backInReachSeconds(name: string): number {
  const stats = HOSTILE_STATS[name] ?? HOSTILE_STATS.zombie;
  return stats ? returnSeconds(stats) : 0;
}

/** Seconds a knocked-back mob takes to be in reach again: walking, and for a leaper the last stretch in a leap. */
function returnSeconds(stats: HostileStats): number {
  if (!stats.leaps) return KNOCKED_BACK / stats.speed;
  const leap = leapFlight(stats);
  return Math.max(0, KNOCKED_BACK - leap.distance) / stats.speed + (leap.ticks * TICK_MS) / 1000;
}

/**
 * A leap's flight (LeapAtTargetGoal, as mob-rules' brain flies it): it starts at LEAP_SPEED blocks a tick and keeps
 * AIR_DRAG of it each tick until it is no faster than the walk. The leap is taken as soon as the mob is in range (its
 * 1-in-5 chance a tick, a quarter second on average, is left out).
 */
function leapFlight(stats: HostileStats): { distance: number; ticks: number } {
  const walk = stats.speed / TICKS_PER_SECOND;
  let [speed, distance, ticks] = [LEAP_SPEED, 0, 0];
  while (speed > walk) {
    distance += speed;
    speed *= AIR_DRAG;
    ticks++;
  }
  return { distance, ticks };
}
