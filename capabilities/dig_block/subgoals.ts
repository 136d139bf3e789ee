import type { MissingPrecondition, PlanStepInput } from 'verbtree';
import type { DigBlockArgs } from './schema.js';

/** Within this range of a block, its chunk is loaded and the bot can reach it after a short approach. */
const APPROACH_RANGE = 4;

export function digBlockSubgoals(missing: MissingPrecondition, { position }: DigBlockArgs): PlanStepInput[] | null {
  if (missing.predicate !== 'near_position') return null;
  const { x, y, z } = position;
  return [
    {
      stepId: `subgoal-approach@${x},${y},${z}`,
      type: 'navigate',
      args: { target: { kind: 'near', x, y, z, range: APPROACH_RANGE } },
    },
  ];
}
