import { dropsNear, pickUp, type TreeBindings } from 'verbtree';
import type { CollectDropsArgs } from './schema.js';

export const collectDropsBindings: TreeBindings<CollectDropsArgs> = {
  actions: {
    /**
     * Walks up to each matching drop within the radius, nearest first, each at most once.
     * A drop it cannot reach is skipped; the leaf fails (with that walk's code) only when
     * walks failed and nothing was picked up. With nothing left to pick up it succeeds and
     * acceptance judges the inventory (an earlier try may have picked the drops up).
     * Progress: drops picked of those seen.
     */
    collect_drops_pick_up: async (ctx) => {
      const { world, args } = ctx;
      const origin = { ...world.position() };
      const visited = new Set<number>();
      let picked = 0;
      let lastError: unknown;
      for (;;) {
        const drop = dropsNear(world.entities(), origin, args.radius, args.item).find((d) => !visited.has(d.id));
        if (!drop) break;
        visited.add(drop.id);
        try {
          if (await pickUp(ctx, drop)) picked++;
        } catch (error) {
          if (ctx.signal.aborted) throw error;
          lastError = error;
          continue;
        }
        ctx.progress(picked, visited.size);
      }
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows the last caught error as it was
      if (picked === 0 && lastError !== undefined) throw lastError;
    },
  },
};
