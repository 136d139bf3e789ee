/*
 * A reference goal planner, written as a user of verbtree would write one,
 * with the public API only: given a goal such as { have: { stone_pickaxe: 1 } }
 * it expands the goal over the game's recipes into plan steps (gather the raw
 * materials with collect_block, craft the tools gathering needs, craft the
 * goal), and when a step fails it plans again from what the bot really holds.
 * It is the smallest real planner that drives verbtree end to end.
 */
import { type FailureContext, type Planner, type PlannerReply, type PlanStepInput, recipeFor } from '../../src/index.js';

export interface Goal {
  have: Record<string, number>;
}

/** Items that are gathered, not crafted: the block to dig, and the tool digging it needs. */
const SOURCES: Record<string, { block: string; tool?: string }> = {
  oak_log: { block: 'oak_log' },
  cobblestone: { block: '#stone', tool: 'wooden_pickaxe' },
};

interface Expansion {
  /** Raw materials to gather, in the order first needed. */
  gather: Map<string, number>;
  /** Tools that gathering needs, to craft before it, in order. */
  tools: string[];
  /** Crafts that need a crafting table (each may need its own, where the last one is out of reach). */
  tableCrafts: number;
}

/**
 * What it takes to hold `count` of `item`, given what `pack` holds (a virtual
 * pack: ingredients are used up, leftovers of a craft stay for the next).
 */
function expand(item: string, count: number, pack: Record<string, number>, plan: Expansion, path: readonly string[] = []): void {
  const held = pack[item] ?? 0;
  if (held >= count) {
    pack[item] = held - count;
    return;
  }
  const missing = count - held;
  pack[item] = 0;
  if (path.includes(item)) throw new Error(`${item} is needed to make itself (${[...path, item].join(' → ')})`);
  const source = SOURCES[item];
  if (source) {
    if (source.tool && !plan.tools.includes(source.tool)) {
      plan.tools.push(source.tool);
      expand(source.tool, 1, pack, plan, [...path, item]);
      pack[source.tool] = (pack[source.tool] ?? 0) + 1; // kept, not used up
    }
    plan.gather.set(item, (plan.gather.get(item) ?? 0) + missing);
    return;
  }
  const recipe = recipeFor(item);
  if (!recipe) throw new Error(`no recipe makes ${item}, and this planner knows no other way to get it`);
  const times = Math.ceil(missing / recipe.yields);
  if (recipe.needsTable) {
    plan.tableCrafts++;
    expand('crafting_table', 1, pack, plan, [...path, item]);
  }
  for (const [ingredient, perCraft] of Object.entries(recipe.ingredients)) expand(ingredient, perCraft * times, pack, plan, [...path, item]);
  pack[item] = (pack[item] ?? 0) + times * recipe.yields - missing;
}

/**
 * Plan steps that take a bot holding `inventory` to `goal`. Step ids carry
 * `tag` so a re-plan never reuses an id already run.
 */
export function stepsFor(goal: Goal, inventory: Readonly<Record<string, number>>, tag = ''): PlanStepInput[] {
  const plan: Expansion = { gather: new Map(), tools: [], tableCrafts: 0 };
  const pack = { ...inventory };
  for (const [item, count] of Object.entries(goal.have)) expand(item, count, pack, plan);
  const id = (name: string) => `${name}${tag}`;
  const steps: PlanStepInput[] = [];
  const gather = (item: string) => {
    const count = plan.gather.get(item);
    if (count) steps.push({ stepId: id(`gather-${item}`), type: 'collect_block', args: { block: SOURCES[item]!.block, count, radius: 48 } });
  };
  // Logs first: every tool and table is made of them.
  gather('oak_log');
  for (const tool of plan.tools) if ((inventory[tool] ?? 0) < 1) steps.push({ stepId: id(`craft-${tool}`), type: 'craft_item', args: { item: tool, count: 1 } });
  for (const item of plan.gather.keys()) if (item !== 'oak_log') gather(item);
  for (const [item, count] of Object.entries(goal.have)) {
    if ((inventory[item] ?? 0) < count) steps.push({ stepId: id(`craft-${item}`), type: 'craft_item', args: { item, count: count - (inventory[item] ?? 0) } });
  }
  return steps;
}

/** The goal a `{ have: … }` intent names, e.g. goal "have stone_pickaxe" or context { have: { stone_pickaxe: 1 } }. */
export function goalOf(intent: { goal: string; context?: Record<string, unknown> }): Goal {
  const have = intent.context?.have;
  if (have && typeof have === 'object') return { have: have as Record<string, number> };
  const match = /^have (\w+)(?: x(\d+))?$/.exec(intent.goal.trim());
  if (!match) throw new Error(`goal "${intent.goal}" is not "have <item>" and the intent has no context.have`);
  return { have: { [match[1]!]: Number(match[2] ?? 1) } };
}

/**
 * The planner: `plan(intent)` for a bot starting with `inventory`, and on a
 * failure, a new plan from the pack the bot holds now; when nothing of a kind
 * is in sight, the new plan first explores for it (once per kind).
 */
export function goalPlanner(options: { inventory?: Record<string, number>; maxReplans?: number } = {}): Planner {
  let replans = 0;
  let goal: Goal | null = null;
  const explored = new Set<string>();
  return {
    name: 'goal-planner',
    async plan(intent) {
      goal = goalOf(intent);
      return { planId: `goal-${intent.id}`, intentId: intent.id, steps: stepsFor(goal, options.inventory ?? {}) };
    },
    async onFailure(context: FailureContext): Promise<PlannerReply> {
      if (!goal) return { giveUp: 'no goal: this planner plans intents' };
      if (++replans > (options.maxReplans ?? 3)) return { giveUp: `${replans - 1} re-plans did not reach the goal` };
      const steps = stepsFor(goal, context.observation.inventory, `#replan${replans}`);
      // Nothing of a kind in sight: walk out and look for it once, then carry on; a second time, the world lacks it.
      const unseen = context.failure.code === 'precondition_missing' ? /no (#?\w+) within \d+ blocks/.exec(context.failure.detail)?.[1] : undefined;
      if (unseen) {
        if (explored.has(unseen)) return { giveUp: `the world does not hold what the goal needs: ${context.failure.detail}` };
        explored.add(unseen);
        return { steps: [{ stepId: `explore-${unseen.replace('#', '')}#replan${replans}`, type: 'explore', args: { block: unseen, radius: 128 } }, ...steps] };
      }
      return steps.length > 0 ? { steps } : { giveUp: 'the goal already holds; nothing left to plan' };
    },
  };
}
