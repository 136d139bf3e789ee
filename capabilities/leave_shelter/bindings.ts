import {
  betterTool,
  climbingBlocks,
  isReplaceable,
  jumpAndPlace,
  type TreeBindings,
  waitUntil,
  WorldError,
} from 'verbtree';
import { feetCell, wayOut } from './cells.js';
import type { LeaveShelterArgs } from './schema.js';

/** A body falls one block in about 6 ticks; more than this and it did not drop into the cell it dug out. */
const FALL_WAIT_MS = 1_000;

export const leaveShelterBindings: TreeBindings<LeaveShelterArgs> = {
  actions: {
    /**
     * Digs the way out (falling down a pillar cell by cell, walking up a staircase step by step as each is cut), with
     * the best tool at hand; progress per cell.
     */
    leave_shelter_dig: async (ctx) => {
      const { world, args } = ctx;
      const { dig, steps } = wayOut(args, feetCell(world.position()));
      for (const [i, cell] of dig.entries()) {
        const name = world.blockAt(cell)?.name ?? 'air';
        if (!isReplaceable(name)) {
          const tool = betterTool(name, world.heldItem(), world.inventory());
          if (tool) await ctx.actuate('equip', () => world.equip(tool, 'hand', { signal: ctx.signal }));
          await ctx.actuate('dig', () => world.dig(cell, { signal: ctx.signal }));
        }
        const under = cell.y < Math.floor(world.position().y);
        if (under && !(await waitUntil(ctx, () => world.position().y <= cell.y + 0.01, FALL_WAIT_MS)))
          throw new WorldError(
            'stuck.progress',
            `leave_shelter: the bot did not drop into (${cell.x}, ${cell.y}, ${cell.z})`,
          );
        ctx.progress(i + 1, dig.length, { unit: 'blocks dug' });
        // A step's three cells are cut: the bot stands on it to reach the next one's.
        const step = steps.length > 0 && i % 3 === 2 ? steps[(i - 2) / 3] : undefined;
        if (step) await ctx.actuate('goto', () => world.goto({ kind: 'block', ...step }, { signal: ctx.signal }));
      }
    },
    /** Out of a hole: rises in place, a block placed under the feet each jump (the most expendable held), until it can step out. */
    leave_shelter_rise: async (ctx) => {
      const { world, args } = ctx;
      const { rise } = wayOut(args, feetCell(world.position()));
      if (rise === 0) return;
      for (let risen = 0; risen < rise; risen++) {
        const [item] = climbingBlocks(world.inventory())[0] ?? [];
        if (!item)
          throw new WorldError(
            'precondition_missing',
            `leave_shelter: no block left in the inventory to climb on (risen ${risen} of ${rise})`,
          );
        if (world.heldItem() !== item)
          await ctx.actuate('equip', () => world.equip(item, 'hand', { signal: ctx.signal }));
        if (!(await jumpAndPlace(ctx, item)))
          throw new WorldError(
            'stuck.progress',
            `leave_shelter: a jump did not lift the bot (risen ${risen} of ${rise})`,
          );
      }
    },
    /** Steps onto the ground cell outside. */
    leave_shelter_step_out: async (ctx) => {
      const { world, args } = ctx;
      await ctx.actuate('goto', () => world.goto({ kind: 'block', ...args.to }, { signal: ctx.signal }));
    },
  },
};
