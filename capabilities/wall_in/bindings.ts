import { chooseBuildingBlock, isSolidBlock, type TreeBindings, WorldError } from 'verbtree';
import { feetCell, wallCells } from './cells.js';
import type { WallInArgs } from './schema.js';

export const wallInBindings: TreeBindings<WallInArgs> = {
  actions: {
    /**
     * Places a block in every open wall cell, feet level first (each head-level block rests on the one below),
     * reporting the wall's solid cells as progress. The cells are those around where the bot stands now.
     */
    wall_in_build: async (ctx) => {
      const { world, args } = ctx;
      const cells = wallCells(feetCell(world.position()));
      const solid = (i: number) => isSolidBlock(world.blockAt(cells[i]!)?.name ?? 'air');
      const open = cells.filter((_, i) => !solid(i)).length;
      const item = args.block ?? chooseBuildingBlock(world.inventory(), open);
      if (!item) throw new WorldError('precondition_missing', 'wall_in: no building block in the inventory');
      if (open > 0 && world.heldItem() !== item)
        await ctx.actuate('equip', () => world.equip(item, 'hand', { signal: ctx.signal }));
      for (let i = 0; i < cells.length; i++) {
        if (!solid(i)) await ctx.actuate('place', () => world.place(cells[i]!, item, { signal: ctx.signal }));
        ctx.progress(i + 1, cells.length, { unit: 'wall cells' });
      }
    },
  },
};
