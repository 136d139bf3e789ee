import type { Expectation, Observation } from 'verbtree';
import type { FleeArgs } from './schema.js';
import { blockCentre } from './threat.js';

/** Arrival within a block of the goal counts: the pathfinder stops near, not exactly at, its goal. */
const TOLERANCE = 1;

/**
 * With `clearOf`, the bot ends with no mob of those kinds alive within `distance` of where it stands (the chasers are
 * judged where they are at the end). Otherwise it ends `distance` from the danger: from `from` when given. Observations carry no entities, so a
 * flight from the nearest hostile is measured from where the bot stood at dispatch (the hostile was near it).
 */
export function fleeExpects(pre: Observation, args: FleeArgs): Expectation[] {
  if (args.clearOf) return [{ kind: 'no_entities', names: args.clearOf, radius: args.distance - TOLERANCE }];
  const from = args.from ? blockCentre(args.from) : pre.position;
  return [{ kind: 'away', from: { x: from.x, y: from.y, z: from.z }, atLeast: args.distance - TOLERANCE }];
}
