import type { AcceptanceResult, Observation } from '../../src/index.js';
import type { FleeArgs } from './schema.js';
import { blockCentre, distanceBetween } from './threat.js';

/** Arrival within a block of the goal counts: the pathfinder stops near, not exactly at, its goal. */
const TOLERANCE = 1;

/**
 * Observations carry no entities, so a flight from the nearest hostile is measured from where the bot
 * started: it must have covered `distance`. With `from`, the distance from that position is measured.
 */
export function fleeAcceptance(pre: Observation, post: Observation, args: FleeArgs): AcceptanceResult {
  const origin = args.from ? blockCentre(args.from) : pre.position;
  const reached = distanceBetween(post.position, origin);
  if (reached >= args.distance - TOLERANCE) return { ok: true };
  const what = args.from ? 'the danger' : 'the starting point';
  return { ok: false, unmet: [`safe_distance: ${reached.toFixed(1)} blocks from ${what}, needs ${args.distance}`] };
}
