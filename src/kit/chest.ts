import { z } from 'zod';
import { blockKey, ItemName, type Observation, type ObservationQuery, type Vec3Like } from '../contracts/index.js';
import { CHEST_BLOCKS } from '../world/actuator-rules.js';

/** How far the nearest chest is looked for when the step names none. */
export const CHEST_SEARCH = 32;

export interface ChestArgs {
  item: string;
  count: number;
  chest?: Vec3Like | undefined;
}

/**
 * The chest a step chose when it named none: the nearest in the open at dispatch. Kept per step (the
 * executor hands one parsed-arguments object to every look at a step), so its acceptance, guard and
 * actions all mean the same chest even after the bot has walked nearer another.
 */
const chosen = new WeakMap<object, Vec3Like | null>();

/** What a step looks at before it starts: the chest it names, or the nearest one and what it holds. */
export function chestQuery(args: ChestArgs): ObservationQuery {
  return args.chest
    ? { containers: [args.chest] }
    : { find: { names: CHEST_BLOCKS, within: CHEST_SEARCH, contents: true } };
}

/** The step's chest: the one named, else the nearest at dispatch (null when none was in sight then). */
export function chestOf(args: ChestArgs, pre?: Observation): Vec3Like | null {
  if (args.chest) return args.chest;
  if (!chosen.has(args) && pre) chosen.set(args, pre.found ?? null);
  return chosen.get(args) ?? null;
}

/**
 * How many of `item` the chest held in an observation: null when no chest stands there, undefined when the world could
 * not say.
 */
export function chestHolds(observation: Observation, chest: Vec3Like, item: string): number | null | undefined {
  const contents = observation.containers?.[blockKey(chest)];
  if (contents === undefined) return undefined;
  return contents === null ? null : (contents[item] ?? 0);
}

export const at = (p: Vec3Like) => `${Math.floor(p.x)},${Math.floor(p.y)},${Math.floor(p.z)}`;

const Point = z.strictObject({ x: z.int(), y: z.int(), z: z.int() });

/** What store_items and take_items take: an item, how many, and which chest. */
export function chestTransferArgs(verb: 'store' | 'take') {
  return z
    .strictObject({
      item: ItemName.describe(
        verb === 'store'
          ? 'What to put in the chest, e.g. "cobblestone".'
          : 'What to take from the chest, e.g. "iron_ingot".',
      ),
      count: z
        .int()
        .min(1)
        .max(27 * 64)
        .describe('How many; a chest holds 27 stacks.'),
      chest: Point.optional().describe(
        'The chest (or barrel) to use; default: the nearest one in the open within 32 blocks.',
      ),
    })
    .describe(
      verb === 'store'
        ? 'Walk to a chest and put items from the pack into it.'
        : 'Walk to a chest and take items from it into the pack.',
    );
}
