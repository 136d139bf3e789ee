import { FUELS, fuelFor, smeltingInputsOf } from 'verbtree';
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
