import { smeltingInputsOf, type TreeBindings, type Vec3Like, withinReach, WorldError, type WorldPort } from 'verbtree';
import { FURNACE_SEARCH, fuelToBurn, furnaceHolds, inputToLoad, stillToLoad } from './choice.js';
import { DEFAULT_FUEL } from './guard.js';
import type { SmeltItemArgs } from './schema.js';

const APPROACH_RANGE = 2;

function furnaceInReach(world: WorldPort): Vec3Like | null {
  const feet = world.position();
  return (
    world
      .findBlocks({ names: ['furnace'], maxDistance: FURNACE_SEARCH, count: 8 })
      .find((furnace) => withinReach(feet, furnace)) ?? null
  );
}

export const smeltItemBindings: TreeBindings<SmeltItemArgs> = {
  conditions: {
    smelt_item_furnace_in_reach: ({ world }) => furnaceInReach(world) !== null,
  },
  actions: {
    smelt_item_approach_furnace: (ctx) => {
      const [furnace] = ctx.world.findBlocks({ names: ['furnace'], maxDistance: FURNACE_SEARCH, count: 1 });
      if (!furnace)
        throw new WorldError('precondition_missing', `smelt_item: no furnace within ${FURNACE_SEARCH} blocks`);
      const goal = { kind: 'near' as const, ...furnace, range: APPROACH_RANGE };
      return ctx.actuate('goto', () => ctx.world.goto(goal, { signal: ctx.signal }));
    },
    smelt_item_smelt: async (ctx) => {
      const { world, args } = ctx;
      const furnace = furnaceInReach(world);
      if (!furnace) throw new WorldError('precondition_missing', 'smelt_item: the furnace is out of reach');
      // A smelt a crash or an abort cut short: the furnace's output and its cooking count (the world loads the rest).
      const left = stillToLoad(args, furnaceHolds(await world.observe({ containers: [furnace] }), furnace));
      const inventory = world.inventory();
      const input =
        left.args.count > 0
          ? inputToLoad(left.args, left.cooking, inventory)
          : (left.cooking ?? smeltingInputsOf(args.item)[0]!);
      if (!input)
        throw new WorldError(
          'precondition_missing',
          `smelt_item: the pack no longer holds ${left.args.count} of anything that smelts into ${args.item}`,
        );
      const fuel = left.args.count > 0 ? fuelToBurn(left.args, input, inventory) : (args.fuel ?? DEFAULT_FUEL);
      if (!fuel)
        throw new WorldError(
          'precondition_missing',
          `smelt_item: the pack no longer holds the fuel for ${left.args.count} ${args.item}`,
        );
      if (!world.smelt)
        throw new WorldError('guard_failed', `smelt_item: the ${world.kind} world has no furnace actuator`);
      return ctx.actuate('smelt', () => world.smelt!(furnace, input, args.count, fuel, { signal: ctx.signal }));
    },
  },
};
