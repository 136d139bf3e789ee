import {
  type GuardContext,
  type MissingPrecondition,
  type PlanStepInput,
  spotBeside,
  stepsToGet,
  subgoalsForMissingItem,
} from 'verbtree';
import { TABLE_REACH } from './requirements.js';

/** A table this close is worth walking to rather than spending four planks on a new one. */
const WALK_TO_TABLE_WITHIN = 32;

/**
 * A missing ingredient is got as verbtree's `stepsToGet` says: crafted, smelted, or gathered from the nearest block
 * that drops it; one with no such block in sight goes back to the planner.
 * A missing table is placed beside the bot when the pack holds one (a bot that carries its table never
 * walks back for it, nor finds the way back dug away); otherwise one standing nearby is walked to, or
 * one is crafted and placed.
 */
export function craftItemSubgoals(
  missing: MissingPrecondition,
  _args: unknown,
  { world, observation }: GuardContext,
): PlanStepInput[] | null {
  if (missing.predicate === 'has_item') return subgoalsForMissingItem(missing, world);
  if (missing.predicate === 'near_block' && missing.detail.block === 'crafting_table') {
    const held = (observation.inventory.crafting_table ?? 0) > 0;
    const [table] = held
      ? []
      : world.findBlocks({ names: ['crafting_table'], maxDistance: WALK_TO_TABLE_WITHIN, count: 1 });
    if (table) {
      const target = { kind: 'near', x: table.x, y: table.y, z: table.z, range: TABLE_REACH - 1 };
      return [{ stepId: 'subgoal-approach-crafting_table', type: 'navigate', args: { target } }];
    }
    const steps = held ? [] : (stepsToGet(world, 'crafting_table', 1) ?? []);
    const position = spotBeside(world, observation.position);
    // Nowhere within reach to put one (a pillar top in the air): the planner hears why.
    if (!position) return null;
    return [
      ...steps,
      { stepId: 'subgoal-place-crafting_table', type: 'place_block', args: { position, item: 'crafting_table' } },
    ];
  }
  return null;
}
