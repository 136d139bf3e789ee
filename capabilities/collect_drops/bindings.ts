import { type EntityInfo, type RunContext, type TreeBindings, WorldError } from '../../src/index.js';
import { waitUntil } from '../pillar_up/wait.js';
import { dropsNear } from './drops.js';
import type { CollectDropsArgs } from './schema.js';

/** A server hands a drop over a tick or two after the bot reaches it. */
const PICKUP_WAIT_MS = 500;

function stillThere(ctx: RunContext<CollectDropsArgs>, drop: EntityInfo): boolean {
  return ctx.world.entities().some((entity) => entity.id === drop.id);
}

export const collectDropsBindings: TreeBindings<CollectDropsArgs> = {
  actions: {
    /**
     * Walks onto each matching drop within the radius, nearest first, each at most once.
     * A drop it cannot reach is skipped; the leaf fails (with the last walk's code) only
     * when it picked up nothing. Progress: drops picked of those seen.
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
        const { x, y, z } = drop.position;
        try {
          await ctx.actuate('goto', () => world.goto({ kind: 'block', x: Math.floor(x), y: Math.floor(y), z: Math.floor(z) }, { signal: ctx.signal }));
        } catch (error) {
          if (ctx.signal.aborted) throw error;
          lastError = error;
          continue;
        }
        if (await waitUntil(ctx, () => !stillThere(ctx, drop), PICKUP_WAIT_MS)) picked++;
        ctx.progress(picked, visited.size);
      }
      if (picked > 0) return;
      throw lastError ?? new WorldError('effects_unmet', `collect_drops: reached every drop within ${args.radius} blocks but picked none up`);
    },
  },
};
