import { type TreeBindings, withinReach } from 'verbtree';
import type { PlaceBlockArgs } from './schema.js';

export const placeBlockBindings: TreeBindings<PlaceBlockArgs> = {
  conditions: {
    place_block_in_reach: ({ world, args }) => withinReach(world.position(), args.position),
  },
  actions: {
    place_block_put: (ctx) =>
      ctx.actuate('place', () => ctx.world.place(ctx.args.position, ctx.args.item, { signal: ctx.signal })),
  },
};
