import {
  type GuardContext,
  type MissingPrecondition,
  type PlanStepInput,
  spotBeside,
  subgoalsForMissingItem,
} from 'verbtree';
import { FURNACE_REACH, FURNACE_SEARCH } from './choice.js';

/**
 * A missing input or fuel is got as craft_item gets an ingredient (crafted, or gathered from the
 * nearest block that drops it: raw_iron from iron ore). A furnace standing within FURNACE_SEARCH is
 * walked to; otherwise one is crafted (8 cobblestone at a table, themselves sub-goals) and placed beside the bot.
 */
export function smeltItemSubgoals(
  missing: MissingPrecondition,
  _args: unknown,
  context: GuardContext,
): PlanStepInput[] | null {
  if (missing.predicate === 'has_item') return subgoalsForMissingItem(missing, context.world);
  if (missing.predicate !== 'near_block' || missing.detail.block !== 'furnace') return null;
  const { world, observation } = context;
  const [furnace] = world.findBlocks({ names: ['furnace'], maxDistance: FURNACE_SEARCH, count: 1 });
  if (furnace)
    return [
      {
        stepId: 'subgoal-approach-furnace',
        type: 'navigate',
        args: { target: { kind: 'near', ...furnace, range: FURNACE_REACH - 1 } },
      },
    ];
  const craft =
    (observation.inventory.furnace ?? 0) > 0
      ? []
      : [{ stepId: 'subgoal-craft-furnace', type: 'craft_item', args: { item: 'furnace', count: 1 } }];
  const position = spotBeside(world, observation.position);
  if (!position) return null;
  return [...craft, { stepId: 'subgoal-place-furnace', type: 'place_block', args: { position, item: 'furnace' } }];
}
