import {
  craftsFor,
  type Recipe,
  type TreeBindings,
  type Vec3Like,
  withinReach,
  WorldError,
  type WorldPort,
} from 'verbtree';
import { TABLE_REACH } from './requirements.js';
import type { CraftItemArgs } from './schema.js';

/**
 * The guard admits a table within TABLE_REACH of the feet; look a little wider so a table it admitted is always found.
 */
const TABLE_SEARCH = TABLE_REACH + 2;
/** Close enough to open the table from where the walk stops. */
const TABLE_APPROACH_RANGE = 2;

function recipeOf(world: WorldPort, item: string): Recipe {
  const recipe = world.recipe(item);
  if (!recipe) throw new WorldError('guard_failed', `craft_item: ${item} has no crafting recipe`);
  return recipe;
}

function nearestTable(world: WorldPort): Vec3Like | null {
  return world.findBlocks({ names: ['crafting_table'], maxDistance: TABLE_SEARCH, count: 1 })[0] ?? null;
}

function tableInReach(world: WorldPort): Vec3Like | null {
  const feet = world.position();
  return (
    world
      .findBlocks({ names: ['crafting_table'], maxDistance: TABLE_SEARCH, count: 8 })
      .find((table) => withinReach(feet, table)) ?? null
  );
}

export const craftItemBindings: TreeBindings<CraftItemArgs> = {
  conditions: {
    /** A 2x2 recipe needs no table; a 3x3 one needs a table the bot can open without moving. */
    craft_item_table_ready: ({ world, args }) =>
      world.recipe(args.item)?.needsTable !== true || tableInReach(world) !== null,
  },
  actions: {
    craft_item_approach_table: (ctx) => {
      const table = nearestTable(ctx.world);
      if (!table)
        throw new WorldError(
          'precondition_missing',
          `craft_item: ${ctx.args.item} needs a crafting_table and none is within ${TABLE_SEARCH} blocks`,
        );
      const goal = { kind: 'near' as const, ...table, range: TABLE_APPROACH_RANGE };
      return ctx.actuate('goto', () => ctx.world.goto(goal, { signal: ctx.signal }));
    },
    craft_item_craft: (ctx) => {
      const { world, args } = ctx;
      const recipe = recipeOf(world, args.item);
      const table = recipe.needsTable ? tableInReach(world) : null;
      if (recipe.needsTable && !table)
        throw new WorldError('precondition_missing', `craft_item: ${args.item} needs a crafting_table within reach`);
      return ctx.actuate('craft', () =>
        world.craft(args.item, craftsFor(recipe, args.count), { table, signal: ctx.signal }),
      );
    },
  },
};
