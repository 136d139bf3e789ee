import type { MissingPrecondition, PlanStepInput } from 'verbtree';

/**
 * A missing tool is crafted (craft_item gathers its own ingredients from the pack); a block out of sight has no
 * sub-goal yet.
 */
export function collectBlockSubgoals(missing: MissingPrecondition): PlanStepInput[] | null {
  if (missing.predicate !== 'has_item') return null;
  const item = String(missing.detail.item);
  return [{ stepId: `subgoal-craft-${item}`, type: 'craft_item', args: { item, count: 1 } }];
}
