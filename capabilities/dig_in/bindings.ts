import { betterTool, chooseBuildingBlock, type TreeBindings, type Vec3Like, waitUntil, WorldError } from 'verbtree';
import { coverOf, holeCells } from './cells.js';
import { groundRefusal } from './ground.js';
import type { DigInArgs } from './schema.js';

/** A body falls one block in about 6 ticks; more than this and it did not drop into the cell it dug out. */
const FALL_WAIT_MS = 1_000;

/** The feet are in `cell`'s column, at its floor or lower: the bot dropped into the cell it dug, not beside it. */
const isIn = (p: Vec3Like, cell: Vec3Like) =>
  Math.floor(p.x) === cell.x && Math.floor(p.z) === cell.z && p.y <= cell.y + 0.01;

/** In the hole under `cover`: in its column, below it. */
const isUnder = (p: Vec3Like, cover: Vec3Like) =>
  Math.floor(p.x) === cover.x && Math.floor(p.z) === cover.z && p.y < cover.y;

export const digInBindings: TreeBindings<DigInArgs> = {
  actions: {
    /**
     * Digs the three cells under the bot one by one with the best tool at hand, falling into each; progress per cell.
     * The ground is judged again under where the bot stands now: a hit between the guard and the dig can have knocked
     * it onto a column with a cave under it.
     */
    dig_in_dig: async (ctx) => {
      const { world } = ctx;
      const feet = world.position();
      const hole = holeCells({ x: Math.floor(feet.x), y: Math.floor(feet.y), z: Math.floor(feet.z) });
      const refusal = groundRefusal(world, hole);
      if (refusal) throw new WorldError('guard_failed', `dig_in: ${refusal}`);
      for (const [i, cell] of hole.entries()) {
        const name = world.blockAt(cell)?.name ?? 'air';
        const tool = betterTool(name, world.heldItem(), world.inventory());
        if (tool) await ctx.actuate('equip', () => world.equip(tool, 'hand', { signal: ctx.signal }));
        await ctx.actuate('dig', () => world.dig(cell, { signal: ctx.signal }));
        if (!(await waitUntil(ctx, () => isIn(world.position(), cell), FALL_WAIT_MS)))
          throw new WorldError('stuck.progress', `dig_in: the bot did not drop into (${cell.x}, ${cell.y}, ${cell.z})`);
        ctx.progress(i + 1, hole.length, { unit: 'blocks dug' });
      }
    },
    /**
     * Closes the top of the hole, two blocks above the bot's feet; a hostile that walked into the hole before it was
     * closed is shut in with the bot, so the shelter fails rather than end verified (the bot is no obstacle to a
     * mob's walk: on the embedded server a skeleton walked into a hole dug by hand and shot the bot dead in it).
     */
    dig_in_cover: async (ctx) => {
      const { world, args } = ctx;
      const feet = world.position();
      const cover = coverOf(holeCells({ x: Math.floor(feet.x), y: Math.floor(feet.y) + 3, z: Math.floor(feet.z) }));
      const item = args.block ?? chooseBuildingBlock(world.inventory(), 1);
      if (!item) throw new WorldError('precondition_missing', 'dig_in: no block in the inventory to close the hole');
      if (world.heldItem() !== item)
        await ctx.actuate('equip', () => world.equip(item, 'hand', { signal: ctx.signal }));
      await ctx.actuate('place', () => world.place(cover, item, { signal: ctx.signal }));
      const inside = world.entities().find((e) => e.kind === 'hostile' && isUnder(e.position, cover));
      if (inside)
        throw new WorldError(
          'effects_unmet',
          `dig_in: a ${inside.name} (entity ${inside.id}) is in the hole with the bot`,
        );
    },
  },
};
