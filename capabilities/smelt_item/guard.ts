import { fuelFor, type GuardContext, type GuardResult, smeltingInputsOf } from 'verbtree';
import { FURNACE_REACH, fuelToBurn, furnaceHolds, inputToLoad, stillToLoad } from './choice.js';
import type { SmeltItemArgs } from './schema.js';

/** The fuel a missing-fuel sub-goal gathers when none was asked for: planks, which any log crafts into. */
export const DEFAULT_FUEL = 'oak_planks';

export function smeltItemGuard({ world, observation }: GuardContext, args: SmeltItemArgs): GuardResult {
  const inputs = smeltingInputsOf(args.item);
  if (inputs.length === 0)
    return { ok: false, reason: `nothing smelts into ${args.item}: it cannot be smelted, only crafted or gathered` };
  const { inventory } = observation;
  // What the nearest furnace already holds of the item, or cooks for it, the pack need not give again.
  const left = stillToLoad(args, furnaceHolds(observation, observation.found));
  const need = left.args.count;
  const input = need > 0 ? inputToLoad(left.args, left.cooking, inventory) : null;
  if (need > 0 && !input) {
    const first = left.cooking ?? inputs[0]!;
    const have = inventory[first] ?? 0;
    return {
      ok: false,
      reason: `missing ${need - have} ${first} (have ${have}, need ${need}) to smelt ${args.count} ${args.item}`,
      missing: { predicate: 'has_item', detail: { item: first, count: need - have } },
    };
  }
  if (need > 0 && !fuelToBurn(left.args, input, inventory)) {
    const fuel = args.fuel ?? DEFAULT_FUEL;
    const burns = fuelFor(fuel, need);
    const have = inventory[fuel] ?? 0;
    return {
      ok: false,
      reason: `no fuel to smelt ${args.count} ${args.item}: it burns ${burns} ${fuel} and the pack holds ${have}`,
      missing: { predicate: 'has_item', detail: { item: fuel, count: burns - have } },
    };
  }
  if (world.findBlocks({ names: ['furnace'], maxDistance: FURNACE_REACH, count: 1 }).length === 0) {
    return {
      ok: false,
      reason: `no furnace within ${FURNACE_REACH} blocks`,
      missing: { predicate: 'near_block', detail: { block: 'furnace' } },
    };
  }
  return { ok: true };
}
