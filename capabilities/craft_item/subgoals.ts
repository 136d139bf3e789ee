import {
  type GuardContext,
  type MissingPrecondition,
  type PlanStepInput,
  type Recipe,
  smeltingInputsOf,
  type WorldPort,
} from 'verbtree';
import { gatherSourceFor } from '../collect_block/tags.js';
import { TABLE_REACH } from './requirements.js';
import { spotBeside } from './spot.js';

const MAX_PER_STEP = 64;
/**
 * How far a raw material is looked for before the sub-goal gives it back to the planner (collect_block's default
 * radius).
 */
const GATHER_WITHIN = 32;
/** A table this close is worth walking to rather than spending four planks on a new one. */
const WALK_TO_TABLE_WITHIN = 32;

function craftSteps(item: string, count: number, verb: 'craft_item' | 'smelt_item' = 'craft_item'): PlanStepInput[] {
  const steps: PlanStepInput[] = [];
  const name = verb === 'craft_item' ? 'craft' : 'smelt';
  for (let left = count, n = 1; left > 0; left -= MAX_PER_STEP, n++) {
    steps.push({
      stepId: n === 1 ? `subgoal-${name}-${item}` : `subgoal-${name}-${item}-${n}`,
      type: verb,
      args: { item, count: Math.min(left, MAX_PER_STEP) },
    });
  }
  return steps;
}

/**
 * A recipe that only packs or unpacks a storage form (9 raw iron ↔ a raw iron block, 9 nuggets → an
 * ingot): no way to make the item from nothing, so it is the last resort, after smelting and gathering.
 */
function isStorageConversion(recipe: Recipe): boolean {
  const counts = Object.values(recipe.ingredients);
  return counts.length === 1 && ((recipe.yields === 9 && counts[0] === 1) || (recipe.yields === 1 && counts[0] === 9));
}

function gatherSteps(item: string, block: string, count: number): PlanStepInput[] {
  const steps: PlanStepInput[] = [];
  for (let left = count, n = 1; left > 0; left -= MAX_PER_STEP, n++) {
    steps.push({
      stepId: n === 1 ? `subgoal-gather-${item}` : `subgoal-gather-${item}-${n}`,
      type: 'collect_block',
      args: { block, count: Math.min(left, MAX_PER_STEP), radius: GATHER_WITHIN },
    });
  }
  return steps;
}

/** The name of the nearest of `blocks` within reach of a gathering sub-goal, or null. */
function nearestOf(world: WorldPort, blocks: readonly string[]): string | null {
  const [at] = world.findBlocks({ names: blocks, maxDistance: GATHER_WITHIN, count: 1, exposed: true });
  return at ? (world.blockAt(at)?.name ?? null) : null;
}

/**
 * A craftable missing ingredient is crafted first (its own guard then reports what it lacks in turn,
 * e.g. stick → oak_planks → oak_log); one a furnace makes is smelted (iron_ingot ← raw_iron); a raw material
 * is gathered with collect_block from the nearest
 * block that drops it (cobblestone from stone, raw_iron from any iron ore), whose own guard crafts the
 * tool it needs; a raw material with no such block in sight goes back to the planner.
 * A missing table is placed beside the bot when the pack holds one (a bot that carries its table never
 * walks back for it, nor finds the way back dug away); otherwise one standing nearby is walked to, or
 * one is crafted and placed.
 */
export function craftItemSubgoals(
  missing: MissingPrecondition,
  _args: unknown,
  { world, observation }: GuardContext,
): PlanStepInput[] | null {
  if (missing.predicate === 'has_item') {
    const { item, count } = missing.detail;
    if (typeof item !== 'string' || typeof count !== 'number' || count < 1) return null;
    const recipe = world.recipe(item);
    if (recipe && !isStorageConversion(recipe)) return craftSteps(item, count);
    // Iron ingots are smelted (smelt_item gathers the raw iron, the fuel and the furnace it lacks), not unpacked from
    // nuggets.
    if (smeltingInputsOf(item).length > 0) return craftSteps(item, count, 'smelt_item');
    const block = gatherSourceFor(item, (blocks) => nearestOf(world, blocks));
    if (block !== null) return gatherSteps(item, block, count);
    return recipe ? craftSteps(item, count) : null;
  }
  if (missing.predicate === 'near_block' && missing.detail.block === 'crafting_table') {
    const held = (observation.inventory.crafting_table ?? 0) > 0;
    const [table] = held
      ? []
      : world.findBlocks({ names: ['crafting_table'], maxDistance: WALK_TO_TABLE_WITHIN, count: 1 });
    if (table) {
      const target = { kind: 'near', x: table.x, y: table.y, z: table.z, range: TABLE_REACH - 1 };
      return [{ stepId: 'subgoal-approach-crafting_table', type: 'navigate', args: { target } }];
    }
    const steps = held ? [] : craftSteps('crafting_table', 1);
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
