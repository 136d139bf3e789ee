import { fuelFor, type GuardContext, type GuardResult, smeltingInputsOf } from 'verbtree';
import { FURNACE_REACH, fuelToBurn, inputFor } from './choice.js';
import type { SmeltItemArgs } from './schema.js';

/** The fuel a missing-fuel sub-goal gathers when none was asked for: planks, which any log crafts into. */
export const DEFAULT_FUEL = 'oak_planks';

export function smeltItemGuard({ world, observation }: GuardContext, args: SmeltItemArgs): GuardResult {
  const inputs = smeltingInputsOf(args.item);
  if (inputs.length === 0)
    return { ok: false, reason: `nothing smelts into ${args.item}: it cannot be smelted, only crafted or gathered` };
  const { inventory } = observation;
  const input = inputFor(args, inventory);
  if (!input) {
    const [first] = inputs;
    const have = inventory[first!] ?? 0;
    return {
      ok: false,
      reason: `missing ${args.count - have} ${first} (have ${have}, need ${args.count}) to smelt ${args.count} ${args.item}`,
      missing: { predicate: 'has_item', detail: { item: first!, count: args.count - have } },
    };
  }
  if (!fuelToBurn(args, input, inventory)) {
    const fuel = args.fuel ?? DEFAULT_FUEL;
    const need = fuelFor(fuel, args.count);
    const have = inventory[fuel] ?? 0;
    return {
      ok: false,
      reason: `no fuel to smelt ${args.count} ${args.item}: it burns ${need} ${fuel} and the pack holds ${have}`,
      missing: { predicate: 'has_item', detail: { item: fuel, count: need - have } },
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
