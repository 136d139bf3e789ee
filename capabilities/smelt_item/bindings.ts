import { type TreeBindings, type Vec3Like, WorldError, type WorldPort } from 'verbtree';
import { withinReach } from '../place_block/reach.js';
import { FURNACE_SEARCH, fuelToBurn, inputFor } from './choice.js';
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
    smelt_item_smelt: (ctx) => {
      const { world, args } = ctx;
      const furnace = furnaceInReach(world);
      if (!furnace) throw new WorldError('precondition_missing', 'smelt_item: the furnace is out of reach');
      const inventory = world.inventory();
      const input = inputFor(args, inventory);
      if (!input)
        throw new WorldError(
          'precondition_missing',
          `smelt_item: the pack no longer holds ${args.count} of anything that smelts into ${args.item}`,
        );
      const fuel = fuelToBurn(args, input, inventory);
      if (!fuel)
        throw new WorldError(
          'precondition_missing',
          `smelt_item: the pack no longer holds the fuel for ${args.count} ${args.item}`,
        );
      if (!world.smelt)
        throw new WorldError('guard_failed', `smelt_item: the ${world.kind} world has no furnace actuator`);
      return ctx.actuate('smelt', () => world.smelt!(furnace, input, args.count, fuel, { signal: ctx.signal }));
    },
  },
};
