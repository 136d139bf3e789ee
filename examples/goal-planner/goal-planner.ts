/*
 * A reference goal planner, written as a user of verbtree would write one,
 * with the public API only: given a goal such as { have: { stone_pickaxe: 1 } }
 * it expands the goal over the game's recipes and smelting into plan steps
 * (gather the raw materials with collect_block, craft the tools gathering
 * needs, smelt what is smelted, craft the goal), and when a step fails it plans
 * again from what the bot really holds.
 * It is the smallest real planner that drives verbtree end to end.
 */
import {
  type FailureContext,
  fuelFor,
  type Planner,
  type PlannerReply,
  type PlanStepInput,
  recipeFor,
  smeltingInputsOf,
} from '../../src/index.js';

export interface Goal {
  have: Record<string, number>;
}

/** Items that are gathered, not crafted: the block to dig, and the tool digging it needs. */
const SOURCES: Record<string, { block: string; tool?: string }> = {
  oak_log: { block: 'oak_log' },
  cobblestone: { block: '#stone', tool: 'wooden_pickaxe' },
  raw_iron: { block: '#iron_ores', tool: 'stone_pickaxe' },
};

/**
 * A table just used stands within reach (4 blocks); more covers a bot that stepped back, or that a defence took away
 * from it between the craft and the pickup (a flight runs 10 to 16 blocks).
 */
const TABLE_PICKUP_RADIUS = 16;

/**
 * With `arm`, the sword of each pickaxe's material, crafted at the same table right after it: a player who sees the
 * night coming arms on the way (a wooden sword hits for 4 where the wooden pickaxe hits for 2, a stone one for 5).
 */
const SWORD_AFTER: Record<string, string> = { wooden_pickaxe: 'wooden_sword', stone_pickaxe: 'stone_sword' };

/** What a furnace burns: planks, made from the logs gathered anyway. */
const FUEL = 'oak_planks';

interface Expansion {
  /** Raw materials to gather, in the order first needed. */
  gather: Map<string, number>;
  /** Tools that gathering needs, to craft before it, in order. */
  tools: string[];
  /** Crafts that need a crafting table (each may need its own, where the last one is out of reach). */
  tableCrafts: number;
  /** Items to smelt and how many, in the order first needed; the first one needs a furnace crafted. */
  smelt: Map<string, number>;
}

/**
 * What it takes to hold `count` of `item`, given what `pack` holds (a virtual
 * pack: ingredients are used up, leftovers of a craft stay for the next).
 */
function expand(
  item: string,
  count: number,
  pack: Record<string, number>,
  plan: Expansion,
  path: readonly string[] = [],
): void {
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
      // What the tool takes (and the tools gathering that takes) comes first, so tools are listed in the order they can
      // be made.
      expand(source.tool, 1, pack, plan, [...path, item]);
      plan.tools.push(source.tool);
      pack[source.tool] = (pack[source.tool] ?? 0) + 1; // kept, not used up
    }
    plan.gather.set(item, (plan.gather.get(item) ?? 0) + missing);
    return;
  }
  const input = smeltingInputsOf(item).find((candidate) => SOURCES[candidate]);
  if (input) {
    if (plan.smelt.size === 0 && (pack.furnace ?? 0) < 1) expand('furnace', 1, pack, plan, [...path, item]); // placed, then kept in the world
    expand(input, missing, pack, plan, [...path, item]);
    expand(FUEL, fuelFor(FUEL, missing), pack, plan, [...path, item]);
    plan.smelt.set(item, (plan.smelt.get(item) ?? 0) + missing);
    return;
  }
  const recipe = recipeFor(item);
  if (!recipe) throw new Error(`no recipe makes ${item}, and this planner knows no other way to get it`);
  const times = Math.ceil(missing / recipe.yields);
  if (recipe.needsTable) {
    plan.tableCrafts++;
    expand('crafting_table', 1, pack, plan, [...path, item]);
  }
  for (const [ingredient, perCraft] of Object.entries(recipe.ingredients))
    expand(ingredient, perCraft * times, pack, plan, [...path, item]);
  pack[item] = (pack[item] ?? 0) + times * recipe.yields - missing;
}

/** The swords `arm` adds: one after each tool the plan crafts, unless the pack holds it or a better one. */
function swordsFor(tools: readonly string[], inventory: Readonly<Record<string, number>>): Map<string, string> {
  const tiers = Object.values(SWORD_AFTER);
  let best = -1;
  for (const [tier, sword] of tiers.entries()) if ((inventory[sword] ?? 0) > 0) best = tier;
  const swords = new Map<string, string>();
  for (const tool of tools) {
    const sword = SWORD_AFTER[tool];
    if (sword && tiers.indexOf(sword) > best) swords.set(tool, sword);
  }
  return swords;
}

/**
 * Plan steps that take a bot holding `inventory` to `goal`. Step ids carry
 * `tag` so a re-plan never reuses an id already run. With `arm`, a sword is
 * crafted after each pickaxe of its material (SWORD_AFTER).
 */
export function stepsFor(
  goal: Goal,
  inventory: Readonly<Record<string, number>>,
  tag = '',
  options: { arm?: boolean } = {},
): PlanStepInput[] {
  const plan: Expansion = { gather: new Map(), tools: [], tableCrafts: 0, smelt: new Map() };
  const pack = { ...inventory };
  for (const [item, count] of Object.entries(goal.have)) expand(item, count, pack, plan);
  const swords = options.arm ? swordsFor(plan.tools, inventory) : new Map<string, string>();
  for (const sword of swords.values()) expand(sword, 1, pack, plan);
  const id = (name: string) => `${name}${tag}`;
  const steps: PlanStepInput[] = [];
  const gather = (item: string) => {
    const count = plan.gather.get(item);
    if (count)
      steps.push({
        stepId: id(`gather-${item}`),
        type: 'collect_block',
        args: { block: SOURCES[item]!.block, count, radius: 48 },
      });
  };
  // Logs first: every tool and table is made of them. Then each tool, and what it lets the bot gather.
  gather('oak_log');
  for (const item of plan.gather.keys()) if (!SOURCES[item]!.tool && item !== 'oak_log') gather(item);
  for (const [n, tool] of plan.tools.entries()) {
    const craftsTool = (inventory[tool] ?? 0) < 1;
    if (craftsTool) steps.push({ stepId: id(`craft-${tool}`), type: 'craft_item', args: { item: tool, count: 1 } });
    const sword = swords.get(tool);
    if (sword) steps.push({ stepId: id(`craft-${sword}`), type: 'craft_item', args: { item: sword, count: 1 } });
    // Carry the table on to the next craft, as a player does: gathering may lead far (down a cave), and
    // walking back to a table is the step most often found dug away behind the bot.
    const craftsLater = n < plan.tools.length - 1 || plan.smelt.size > 0;
    if ((craftsTool || sword) && craftsLater)
      steps.push({
        stepId: id(`take-table-${tool}`),
        type: 'collect_block',
        args: { block: 'crafting_table', count: 1, radius: TABLE_PICKUP_RADIUS },
      });
    for (const item of plan.gather.keys()) if (SOURCES[item]!.tool === tool) gather(item);
  }
  if (plan.smelt.size > 0 && (inventory.furnace ?? 0) < 1)
    steps.push({ stepId: id('craft-furnace'), type: 'craft_item', args: { item: 'furnace', count: 1 } });
  for (const [item, count] of plan.smelt)
    steps.push({ stepId: id(`smelt-${item}`), type: 'smelt_item', args: { item, count, fuel: FUEL } });
  for (const [item, count] of Object.entries(goal.have)) {
    // A goal that is gathered or smelted is done by its own step above.
    if (SOURCES[item] || plan.smelt.has(item)) continue;
    if ((inventory[item] ?? 0) < count)
      steps.push({
        stepId: id(`craft-${item}`),
        type: 'craft_item',
        args: { item, count: count - (inventory[item] ?? 0) },
      });
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
export function goalPlanner(
  options: { inventory?: Record<string, number>; maxReplans?: number; arm?: boolean } = {},
): Planner {
  let replans = 0;
  let goal: Goal | null = null;
  const explored = new Set<string>();
  const replan = (context: FailureContext): PlannerReply => {
    if (!goal) return { giveUp: 'no goal: this planner plans intents' };
    if (++replans > (options.maxReplans ?? 3)) return { giveUp: `${replans - 1} re-plans did not reach the goal` };
    const steps = stepsFor(goal, context.observation.inventory, `#replan${replans}`, options);
    // Nothing of a kind in sight: walk out and look for it once, then carry on; a second time, the world lacks it.
    // Only what is gathered: a table left out of reach is made again by the new plan's crafts, not searched for.
    const missing =
      context.failure.code === 'precondition_missing'
        ? /no (#?\w+) within \d+ blocks/.exec(context.failure.detail)?.[1]
        : undefined;
    const unseen = Object.values(SOURCES).some((source) => source.block === missing) ? missing : undefined;
    if (unseen) {
      if (explored.has(unseen))
        return { giveUp: `the world does not hold what the goal needs: ${context.failure.detail}` };
      explored.add(unseen);
      return {
        steps: [
          {
            stepId: `explore-${unseen.replace('#', '')}#replan${replans}`,
            type: 'explore',
            args: { block: unseen, radius: 128 },
          },
          ...steps,
        ],
      };
    }
    return steps.length > 0 ? { steps } : { giveUp: 'the goal already holds; nothing left to plan' };
  };
  return {
    name: 'goal-planner',
    plan(intent) {
      goal = goalOf(intent);
      return Promise.resolve({
        planId: `goal-${intent.id}`,
        intentId: intent.id,
        steps: stepsFor(goal, options.inventory ?? {}, '', options),
      });
    },
    onFailure: (context) => Promise.resolve(replan(context)),
  };
}
