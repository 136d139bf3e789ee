import type { MissingPrecondition, PlanStepInput } from 'verbtree';
import type { PlaceBlockArgs } from './schema.js';

const APPROACH_RANGE = 4;

/** An occupied cell is cleared by digging; an unloaded one by walking near it. Items are left to the planner. */
export function placeBlockSubgoals(missing: MissingPrecondition, { position }: PlaceBlockArgs): PlanStepInput[] | null {
  const { x, y, z } = position;
  switch (missing.predicate) {
    case 'cell_empty':
      return [{ stepId: `subgoal-clear@${x},${y},${z}`, type: 'dig_block', args: { position: { x, y, z } } }];
    case 'near_position':
      return [
        {
          stepId: `subgoal-approach@${x},${y},${z}`,
          type: 'navigate',
          args: { target: { kind: 'near', x, y, z, range: APPROACH_RANGE } },
        },
      ];
    default:
      return null;
  }
}
