import type { EntityInfo, RunContext, TreeBindings } from 'verbtree';
import { waitUntil } from '../pillar_up/wait.js';
import { dropsNear } from './drops.js';
import type { CollectDropsArgs } from './schema.js';

/** A server hands a drop over a tick or two after the bot reaches it. */
const PICKUP_WAIT_MS = 500;
/** Beside the drop is close enough to pick it up, and stays reachable when its own cell has no headroom (a log above it). */
const PICKUP_GOAL_RANGE = 1;

function stillThere(ctx: RunContext<CollectDropsArgs>, drop: EntityInfo): boolean {
  return ctx.world.entities().some((entity) => entity.id === drop.id);
}

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
        const { x, y, z } = drop.position;
        try {
          const goal = { kind: 'near' as const, x: Math.floor(x), y: Math.floor(y), z: Math.floor(z), range: PICKUP_GOAL_RANGE };
          await ctx.actuate('goto', () => world.goto(goal, { signal: ctx.signal }));
        } catch (error) {
          if (ctx.signal.aborted) throw error;
          lastError = error;
          continue;
        }
        if (await waitUntil(ctx, () => !stillThere(ctx, drop), PICKUP_WAIT_MS)) picked++;
        ctx.progress(picked, visited.size);
      }
      if (picked === 0 && lastError !== undefined) throw lastError;
    },
  },
};
