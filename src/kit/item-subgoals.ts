import type { PlanStepInput, Recipe, WorldPort } from '../contracts/index.js';
import type { MissingPrecondition } from '../registry/index.js';
import { smeltingInputsOf } from '../world/smelting.js';
import { gatherSourceFor } from './block-tags.js';

/*
 * The sub-goals with which craft_item and smelt_item answer a missing `has_item`. They are steps of the built-in
 * verbs craft_item, smelt_item and collect_block, so a registry that uses them must hold those verbs.
 */

const MAX_PER_STEP = 64;
/**
 * How far a raw material is looked for before the sub-goal gives it back to the planner (collect_block's default
 * radius).
 */
const GATHER_WITHIN = 32;

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
 * The steps that put `count` of `item` in the pack: a craftable item is crafted (its own guard then reports what it
 * lacks in turn, e.g. stick → oak_planks → oak_log); one a furnace makes is smelted (iron_ingot ← raw_iron); a raw
 * material is gathered with collect_block from the nearest block that drops only it (cobblestone from stone, raw_iron
 * from any iron ore), whose own guard crafts the tool it needs. Null when none of these can: a raw material with no
 * such block in sight goes back to the planner.
 */
export function stepsToGet(world: WorldPort, item: string, count: number): PlanStepInput[] | null {
  const recipe = world.recipe(item);
  if (recipe && !isStorageConversion(recipe)) return craftSteps(item, count);
  // Iron ingots are smelted (smelt_item gathers the raw iron, the fuel and the furnace it lacks), not unpacked from
  // nuggets.
  if (smeltingInputsOf(item).length > 0) return craftSteps(item, count, 'smelt_item');
  const block = gatherSourceFor(item, (blocks) => nearestOf(world, blocks));
  if (block !== null) return gatherSteps(item, block, count);
  return recipe ? craftSteps(item, count) : null;
}

/** A guard's missing `has_item` (its detail an item and a count) answered with `stepsToGet`; null for anything else. */
export function subgoalsForMissingItem(missing: MissingPrecondition, world: WorldPort): PlanStepInput[] | null {
  if (missing.predicate !== 'has_item') return null;
  const { item, count } = missing.detail;
  if (typeof item !== 'string' || typeof count !== 'number' || count < 1) return null;
  return stepsToGet(world, item, count);
}
