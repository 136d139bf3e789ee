import {
  betterTool,
  blocksFor,
  canHarvestWith,
  dropItemsOf,
  dropsNear,
  inventoryTotal,
  pickUp,
  type RunContext,
  type TreeBindings,
  type Vec3Like,
  waitUntil,
  withinReach,
  WorldError,
} from 'verbtree';
import type { CollectBlockArgs } from './schema.js';
import { dropLandsWithinReach } from './drop-reach.js';
import { blocksInRadius } from './search.js';
import { walkReportingProgress } from './walk-progress.js';

/**
 * A real server spawns a block's drop a tick or two after the block is gone, and hands it over a tick or two after the
 * bot reaches it.
 */
const DROP_WAIT_MS = 500;
/** Drops land around the dug cell; further out they are some other block's. */
const DROP_RADIUS = 3;
/** Close enough to dig from, and reachable when the block is up a trunk. */
const APPROACH_RANGE = 3;
/**
 * How many candidate cells one search looks at: the nearest blocks in the open may all be ones whose drops no walk
 * reaches (a lake's bed, the walls of a ravine), and a search of the client's chunks costs milliseconds.
 */
const SEARCH_COUNT = 256;

/**
 * What the pack held of the drops when the step first ran: a retry gathers
 * only what is still missing. Keyed by the step's parsed arguments, which the
 * executor hands to every attempt of one step.
 */
const baselines = new WeakMap<object, number>();

const cellKey = (c: Vec3Like) => `${c.x},${c.y},${c.z}`;
const distanceSq = (a: Vec3Like, b: Vec3Like) =>
  (a.x - b.x - 0.5) ** 2 + (a.y - b.y - 0.5) ** 2 + (a.z - b.z - 0.5) ** 2;

/** Counts a floor as this much further (squared), so it is dug only when no wall, trunk or ceiling is left. */
const FLOOR_PENALTY_SQ = 48 * 48;
const OPEN = new Set(['air', 'cave_air', 'void_air']);

/**
 * How far a candidate is, for choosing the next one. A floor (a block at or below the
 * bot's feet with open air on top, that the bot or its way back stands on)
 * comes after every wall and trunk:
 * digging it leaves a hole or a step too high to climb (seen on generated
 * terrain: a tunnel's stair dug out left a step two blocks high between the bot
 * and its crafting table).
 */
function cost(world: RunContext<CollectBlockArgs>['world'], here: Vec3Like, cell: Vec3Like): number {
  const floor =
    cell.y <= Math.floor(here.y) && OPEN.has(world.blockAt({ x: cell.x, y: cell.y + 1, z: cell.z })?.name ?? '');
  return distanceSq(here, cell) + (floor ? FLOOR_PENALTY_SQ : 0);
}

/**
 * A cell in the bot's own column below its feet. Digging straight down is how
 * a bot ends in a shaft it cannot climb out of (seen on generated terrain: three
 * stones dug in a row under the bot), so such a cell is left for another one.
 */
function underFeet(position: Vec3Like, cell: Vec3Like): boolean {
  return cell.x === Math.floor(position.x) && cell.z === Math.floor(position.z) && cell.y < Math.floor(position.y);
}

/** Walks onto each drop of `items` around the dug cell; true when any was picked up. */
async function pickUpAround(
  ctx: RunContext<CollectBlockArgs>,
  cell: Vec3Like,
  items: readonly string[],
  total: () => number,
): Promise<void> {
  const { world } = ctx;
  const centre = { x: cell.x + 0.5, y: cell.y + 0.5, z: cell.z + 0.5 };
  const before = total();
  const near = () => items.flatMap((item) => dropsNear(world.entities(['item']), centre, DROP_RADIUS, item));
  await waitUntil(ctx, () => near().length > 0 || total() > before, DROP_WAIT_MS);
  for (const drop of near()) await pickUp(ctx, drop);
}

export const collectBlockBindings: TreeBindings<CollectBlockArgs> = {
  actions: {
    /**
     * Until the pack holds `count` more of the block's drops: the nearest such
     * block not yet tried, walk within reach, hold the best tool, dig it, pick
     * up what it dropped. A block that could not be reached or dug is skipped;
     * with none left the leaf fails with the last failure's code, or
     * precondition_missing. Progress: drops gained of those asked.
     */
    collect_block_gather: async (ctx) => {
      const { world, args } = ctx;
      const items = dropItemsOf(blocksFor(args.block) ?? []);
      const total = () => inventoryTotal(world.inventory(), items);
      const baseline = baselines.get(args) ?? total();
      baselines.set(args, baseline);
      const target = baseline + args.count;
      const tried = new Set<string>();
      let lastError: unknown;
      while (total() < target) {
        const here = world.position();
        const candidates = (blocksFor(args.block) ?? []).filter((name) => canHarvestWith(name, world.inventory()));
        const open = blocksInRadius(world, args, candidates, SEARCH_COUNT)
          .filter((c) => !tried.has(cellKey(c)) && !underFeet(world.position(), c))
          .sort((a, b) => cost(world, here, a) - cost(world, here, b));
        // One whose drop a walk reaches first; else the nearest, as digging its neighbours may open the way.
        const cell = open.find((c) => dropLandsWithinReach(world, c)) ?? open[0];
        if (!cell) {
          // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows the last caught error as it was
          if (lastError !== undefined) throw lastError;
          throw new WorldError(
            'precondition_missing',
            `no more ${args.block} within ${args.radius} blocks: the pack gained ${total() - baseline} of the ${args.count} asked; explore, or give a larger radius`,
          );
        }
        tried.add(cellKey(cell));
        try {
          if (!withinReach(world.position(), cell)) {
            const gained = Math.min(total() - baseline, args.count);
            await walkReportingProgress(ctx, cell, gained, args.count, () =>
              ctx.actuate('goto', () =>
                world.goto({ kind: 'near', ...cell, range: APPROACH_RANGE }, { signal: ctx.signal }),
              ),
            );
          }
          // The approach may end standing on it: digging it would drop the bot into its own shaft.
          if (underFeet(world.position(), cell)) continue;
          const name = world.blockAt(cell)?.name;
          const tool = name === undefined ? null : betterTool(name, world.heldItem(), world.inventory());
          if (tool) await ctx.actuate('equip', () => world.equip(tool, 'hand', { signal: ctx.signal }));
          await ctx.actuate('dig', () => world.dig(cell, { signal: ctx.signal }));
          await pickUpAround(ctx, cell, items, total);
        } catch (error) {
          if (ctx.signal.aborted) throw error;
          lastError = error;
          continue;
        }
        ctx.progress(Math.min(total() - baseline, args.count), args.count, { unit: args.block });
      }
    },
  },
};
