import type { Expectation, Observation } from 'verbtree';
import { plannedBlocks } from './plan.js';
import type { BuildStructureArgs } from './schema.js';

/** Every cell of the blueprint holds its block. */
export function buildStructureExpects(_pre: Observation, args: BuildStructureArgs): Expectation[] {
  return plannedBlocks(args).map(({ position, block }) => ({
    kind: 'block',
    at: { x: position.x, y: position.y, z: position.z },
    oneOf: [block],
  }));
}
