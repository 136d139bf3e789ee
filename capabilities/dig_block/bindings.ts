import type { TreeBindings } from '../../src/index.js';
import { withinReach } from '../place_block/reach.js';
import type { DigBlockArgs } from './schema.js';
import { betterTool } from './tools.js';

export const digBlockBindings: TreeBindings<DigBlockArgs> = {
  conditions: {
    dig_block_in_reach: ({ world, args }) => withinReach(world.position(), args.position),
  },
  actions: {
    /** Holds the inventory's best tool for the block; nothing to do when the hand already holds it. */
    dig_block_hold_tool: async (ctx) => {
      const block = ctx.world.blockAt(ctx.args.position)?.name;
      const tool = block === undefined ? null : betterTool(block, ctx.world.heldItem(), ctx.world.inventory());
      if (tool) await ctx.actuate('equip', () => ctx.world.equip(tool, 'hand', { signal: ctx.signal }));
    },
    dig_block_break: (ctx) => ctx.actuate('dig', () => ctx.world.dig(ctx.args.position, { signal: ctx.signal })),
  },
};
