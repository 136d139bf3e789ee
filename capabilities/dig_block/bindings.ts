import type { RunContext, TreeBindings } from 'verbtree';
import { betterTool, dropsNear, dropsOf, waitUntil, withinReach } from 'verbtree';
import type { DigBlockArgs } from './schema.js';

/** A real server spawns a block's drop a tick or two after it confirms the block gone. */
const DROP_WAIT_MS = 500;

/**
 * Waits until the drop `block` leaves is in sight (or already in the inventory),
 * so a collect_drops step right after this one finds it instead of failing its guard.
 */
function dropArrived(
  ctx: RunContext<DigBlockArgs>,
  block: string,
  held: string | null,
  before: Readonly<Record<string, number>>,
): Promise<boolean> {
  const drops = dropsOf(block, held);
  if (drops.length === 0) return Promise.resolve(true);
  const { x, y, z } = ctx.args.position;
  const centre = { x: x + 0.5, y: y + 0.5, z: z + 0.5 };
  return waitUntil(
    ctx,
    () =>
      drops.some(
        (item) =>
          dropsNear(ctx.world.entities(['item']), centre, 3, item).length > 0 ||
          (ctx.world.inventory()[item] ?? 0) > (before[item] ?? 0),
      ),
    DROP_WAIT_MS,
  );
}

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
    dig_block_break: async (ctx) => {
      const block = ctx.world.blockAt(ctx.args.position)?.name;
      const held = ctx.world.heldItem();
      const before = ctx.world.inventory();
      await ctx.actuate('dig', () => ctx.world.dig(ctx.args.position, { signal: ctx.signal }));
      if (block !== undefined) await dropArrived(ctx, block, held, before);
    },
  },
};
