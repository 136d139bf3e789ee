import { chooseBuildingBlock, jumpAndPlace, type TreeBindings, WorldError } from 'verbtree';
import type { PillarUpArgs } from './schema.js';

/** Tries per block before the rise counts as stuck (a jump that did not lift, a placement refused mid-air). */
const TRIES_PER_BLOCK = 3;

export const pillarUpBindings: TreeBindings<PillarUpArgs> = {
  actions: {
    /**
     * Rises `height` blocks, one jump-and-place each, reporting blocks risen as progress. A failed
     * jump is tried again here rather than by the tree: the rise counts from where this run began,
     * and only this invocation knows where that was.
     */
    pillar_up_rise: async (ctx) => {
      const { world, args } = ctx;
      const item = args.block ?? chooseBuildingBlock(world.inventory(), args.height);
      if (!item)
        throw new WorldError('precondition_missing', 'pillar_up: no building block in the inventory to stand on');
      // Held before the first jump, so the moment in the air goes to placing, not to swapping items.
      if (world.heldItem() !== item)
        await ctx.actuate('equip', () => world.equip(item, 'hand', { signal: ctx.signal }));
      const startY = Math.floor(world.position().y);
      let risen = 0;
      for (let tries = 0; risen < args.height;) {
        let error: unknown;
        const rose = await jumpAndPlace(ctx, item).catch((caught: unknown) => {
          if (ctx.signal.aborted) throw caught;
          error = caught;
          return false;
        });
        if (rose) {
          risen = Math.floor(world.position().y) - startY;
          tries = 0;
          ctx.progress(risen, args.height, { unit: 'blocks risen' });
        } else if (++tries >= TRIES_PER_BLOCK) {
          throw (
            // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows the last caught error as it was
            error ??
            new WorldError(
              'stuck.progress',
              `pillar_up: ${TRIES_PER_BLOCK} jumps in a row did not lift the bot onto a new block (risen ${risen} of ${args.height})`,
            )
          );
        }
      }
    },
  },
};
