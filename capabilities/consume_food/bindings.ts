import { chooseFood, type RunContext, type TreeBindings, WorldError } from 'verbtree';
import type { ConsumeFoodArgs } from './schema.js';

/** The named food, else the same choice acceptance will check against: the best fit for the hunger deficit now. */
function foodFor({ world, args }: RunContext<ConsumeFoodArgs>): string {
  const food = args.item ?? chooseFood(world.inventory(), world.food());
  if (food === null) throw new WorldError('precondition_missing', 'consume_food: no safe food left in the inventory');
  return food;
}

export const consumeFoodBindings: TreeBindings<ConsumeFoodArgs> = {
  actions: {
    consume_food_hold: (ctx) => {
      const food = foodFor(ctx);
      return ctx.actuate('equip', () => ctx.world.equip(food, 'hand', { signal: ctx.signal }));
    },
    consume_food_eat: (ctx) => {
      const food = foodFor(ctx);
      return ctx.actuate('consume', () => ctx.world.consume(food, { signal: ctx.signal }));
    },
  },
};
