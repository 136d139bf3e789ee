import {
  type GuardContext,
  type MissingPrecondition,
  type PlanStepInput,
  spotBeside,
  stepsToGet,
  subgoalsForMissingItem,
  type Vec3Like,
} from 'verbtree';
import { TABLE_REACH } from './requirements.js';

/** A table this close is worth walking to rather than spending four planks on a new one. */
const WALK_TO_TABLE_WITHIN = 32;
/**
 * A table this close, on about the bot's level, is walked to even when the pack could make one; farther, or above or
 * below it, a pack that makes one makes one. In a night's tech-tree run (SimWorld world 10) a bot 13 blocks down the
 * mine it had dug for cobblestone was sent back to its table 27 blocks off at the surface, found no path out, and
 * spent its plan's escalations on that walk, with the planks for a new table in its pack.
 */
const SHORT_WALK = { across: 8, updown: 2 };
/** What a table is made of: four planks, or a log that makes them. */
const TABLE_PLANKS = 4;

/**
 * A missing ingredient is got as verbtree's `stepsToGet` says: crafted, smelted, or gathered from the nearest block
 * that drops it; one with no such block in sight goes back to the planner.
 * A missing table is placed beside the bot when the pack holds one (a bot that carries its table never
 * walks back for it, nor finds the way back dug away); otherwise one standing a short walk away is walked to, or one
 * within WALK_TO_TABLE_WITHIN when the pack cannot make one; else one is crafted and placed.
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
    if (table && (shortWalk(observation.position, table) || !packMakesTable(observation.inventory))) {
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

function shortWalk(from: Vec3Like, to: Vec3Like): boolean {
  const across = Math.hypot(to.x + 0.5 - from.x, to.z + 0.5 - from.z);
  return across <= SHORT_WALK.across && Math.abs(to.y - Math.floor(from.y)) <= SHORT_WALK.updown;
}

/** Whether the pack holds what a table is crafted from (planks of any wood, or a log to saw them from). */
function packMakesTable(inventory: Readonly<Record<string, number>>): boolean {
  const count = (suffix: string) =>
    Object.entries(inventory).reduce((sum, [item, n]) => sum + (item.endsWith(suffix) ? n : 0), 0);
  return count('_planks') >= TABLE_PLANKS || count('_log') >= 1;
}
