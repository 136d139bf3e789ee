import { blocksFor, type RunContext, type TimerHandle, type TreeBindings, type Vec3Like, WorldError } from 'verbtree';
import { lookouts } from './lookouts.js';
import type { ExploreArgs } from './schema.js';

/** Close enough to a lookout: its column may be a tree or water. */
const LOOKOUT_RANGE = 3;

/** Progress counts each lookout as this many steps, so a long walk between two reports progress on the way. */
const STEPS_PER_LOOKOUT = 100;
const REPORT_EVERY_MS = 1_000;

/**
 * Reports, every second of the walk, how much of the way to the lookout is
 * closed (0 to 99): lookouts on the outer rings lie 60 blocks apart, longer
 * than the stuck detector waits for progress. Returns the stop function.
 */
function reportWalk(
  ctx: RunContext<ExploreArgs>,
  to: { x: number; z: number },
  report: (closed: number) => void,
): () => void {
  const remaining = () => Math.hypot(ctx.world.position().x - to.x, ctx.world.position().z - to.z);
  const from = Math.max(remaining(), 1);
  let timer: TimerHandle | null = null;
  const tick = () => {
    report(Math.max(0, Math.min(STEPS_PER_LOOKOUT - 1, Math.floor((STEPS_PER_LOOKOUT * (from - remaining())) / from))));
    timer = ctx.clock.setTimeout(tick, REPORT_EVERY_MS);
  };
  timer = ctx.clock.setTimeout(tick, REPORT_EVERY_MS);
  return () => {
    if (timer !== null) ctx.clock.clearTimeout(timer);
    timer = null;
  };
}

interface Search {
  start: Vec3Like;
  visited: number;
  reached: number;
  /** Why the last lookout could not be reached, for the failure's evidence. */
  lastFailure?: string;
}

/**
 * Where the step started and how many lookouts it has walked to, across its retries (keyed by its parsed arguments).
 */
const searches = new WeakMap<object, Search>();

export const exploreBindings: TreeBindings<ExploreArgs> = {
  actions: {
    /**
     * Done at once when a block of the kind is already in sight. Otherwise walks
     * to each lookout in turn (rings 16 blocks apart out to the radius) and stops
     * as soon as one is in sight; a lookout it cannot reach is passed by. With
     * every lookout tried, fails precondition_missing naming how far it looked.
     * Progress: lookouts tried of all of them, with the way to the next one.
     */
    explore_search: async (ctx) => {
      const { world, args } = ctx;
      const names = blocksFor(args.block) ?? [];
      const inSight = () => world.findBlocks({ names, maxDistance: args.sight, count: 1, exposed: true }).length > 0;
      if (inSight()) return;
      const search: Search = searches.get(args) ?? { start: { ...world.position() }, visited: 0, reached: 0 };
      searches.set(args, search);
      const points = lookouts(search.start, args.radius);
      const total = points.length * STEPS_PER_LOOKOUT;
      while (search.visited < points.length) {
        const lookout = points[search.visited++]!;
        const done = (search.visited - 1) * STEPS_PER_LOOKOUT;
        const stop = reportWalk(ctx, lookout, (closed) => ctx.progress(done + closed, total));
        try {
          await ctx.actuate('goto', () =>
            world.goto({ kind: 'xz', ...lookout, range: LOOKOUT_RANGE }, { signal: ctx.signal }),
          );
          search.reached++;
        } catch (error) {
          // Cancelled (a flee from a mob, a pause): this lookout is walked to again when the step goes on.
          if (ctx.signal.aborted) {
            search.visited--;
            throw error;
          }
          search.lastFailure = error instanceof Error ? error.message : String(error);
        } finally {
          stop();
        }
        ctx.progress(search.visited * STEPS_PER_LOOKOUT, total);
        if (inSight()) return;
      }
      const { x, z } = search.start;
      const unreached = points.length - search.reached;
      const why =
        unreached > 0
          ? ` (${unreached} could not be reached${search.lastFailure ? `; the last: ${search.lastFailure}` : ''})`
          : '';
      throw new WorldError(
        'precondition_missing',
        `no ${args.block} in the open within ${args.radius} blocks of (${Math.floor(x)}, ${Math.floor(z)}): walked to all ${points.length} lookouts${why}`,
      );
    },
  },
};
