import { blockKey, FUELS, fuelFor, type Observation, type ObservationQuery, smeltingInputsOf } from 'verbtree';
import type { SmeltItemArgs } from './schema.js';

/** How close a furnace must be for the bot to use it without moving (the worlds' reach). */
export const FURNACE_REACH = 4;
/** How far a furnace is looked for before one is placed instead. */
export const FURNACE_SEARCH = 32;

/** The input the pack holds enough of for `count` (raw_iron before iron_ore), or null. */
export function inputFor({ item, count }: SmeltItemArgs, inventory: Readonly<Record<string, number>>): string | null {
  return smeltingInputsOf(item).find((input) => (inventory[input] ?? 0) >= count) ?? null;
}

/**
 * The fuel to burn: the one asked for, or the longest-burning one the pack holds enough of besides the input; null when
 * none.
 */
export function fuelToBurn(
  args: SmeltItemArgs,
  input: string | null,
  inventory: Readonly<Record<string, number>>,
): string | null {
  const enough = (fuel: string) =>
    (inventory[fuel] ?? 0) - (fuel === input ? args.count : 0) >= fuelFor(fuel, args.count);
  if (args.fuel) return enough(args.fuel) ? args.fuel : null;
  return FUELS.find(enough) ?? null;
}

/**
 * How far a step looks for a furnace that already holds its work (a smelt cut short): the bot is beside it
 * then, and a wider look costs a real bot's block search seconds (mineflayer scans every section around).
 */
const FURNACE_LOOK = 2 * FURNACE_REACH;

/** What a step looks at before it starts, and after each attempt: the nearest furnace and what it holds. */
export function furnaceQuery(): ObservationQuery {
  return { find: { names: ['furnace'], within: FURNACE_LOOK, contents: true } };
}

/** What a furnace holds in an observation (item counts); nothing when the observation did not look into one. */
export function furnaceHolds(
  observation: Observation,
  furnace: { x: number; y: number; z: number } | null | undefined,
) {
  return (furnace && observation.containers?.[blockKey(furnace)]) ?? {};
}

/**
 * What is left for the pack to give once the furnace's own holdings are counted: its output of the item
 * and an input for it already cooking count toward the step (a smelt a crash or an abort cut short goes
 * on from the furnace), and the input must then be the kind cooking, since a furnace cooks one kind.
 */
export function stillToLoad(
  args: SmeltItemArgs,
  held: Readonly<Record<string, number>>,
): { args: SmeltItemArgs; cooking: string | null } {
  const cooking = smeltingInputsOf(args.item).find((input) => (held[input] ?? 0) > 0) ?? null;
  const inFurnace = (held[args.item] ?? 0) + (cooking ? held[cooking]! : 0);
  return { args: { ...args, count: Math.max(0, args.count - inFurnace) }, cooking };
}

/** The input to load for `args` (the kind cooking, if any, else what the pack holds enough of); null when none. */
export function inputToLoad(
  args: SmeltItemArgs,
  cooking: string | null,
  inventory: Readonly<Record<string, number>>,
): string | null {
  if (!cooking) return inputFor(args, inventory);
  return (inventory[cooking] ?? 0) >= args.count ? cooking : null;
}
