import type { Expectation, Observation } from 'verbtree';
import { AIR_BLOCKS } from './air.js';
import type { DigBlockArgs } from './schema.js';

/** The dug cell holds air. (That it held a block at dispatch is the guard's check: it refuses an empty cell.) */
export function digBlockExpects(_pre: Observation, { position }: DigBlockArgs): Expectation[] {
  return [{ kind: 'block', at: { x: position.x, y: position.y, z: position.z }, oneOf: [...AIR_BLOCKS] }];
}
