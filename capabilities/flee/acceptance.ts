import type { Expectation, Observation } from 'verbtree';
import type { FleeArgs } from './schema.js';
import { blockCentre } from './threat.js';

/** Arrival within a block of the goal counts: the pathfinder stops near, not exactly at, its goal. */
const TOLERANCE = 1;

/**
 * The bot ends `distance` from the danger: from `from` when given. Observations carry no entities, so a
 * flight from the nearest hostile is measured from where the bot stood at dispatch (the hostile was near it).
 */
export function fleeExpects(pre: Observation, args: FleeArgs): Expectation[] {
  const from = args.from ? blockCentre(args.from) : pre.position;
  return [{ kind: 'away', from: { x: from.x, y: from.y, z: from.z }, atLeast: args.distance - TOLERANCE }];
}
