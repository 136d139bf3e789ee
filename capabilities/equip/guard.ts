import type { GuardContext, GuardResult } from 'verbtree';
import type { EquipArgs } from './schema.js';
import { fitsDestination } from './slots.js';

export function equipGuard({ observation }: GuardContext, { item, destination }: EquipArgs): GuardResult {
  if (!fitsDestination(item, destination)) {
    return {
      ok: false,
      reason: `${item} cannot be worn on the ${destination}; use destination "hand" or an armor piece that fits`,
    };
  }
  const held = destination === 'hand' && observation.heldItem === item;
  if (!held && (observation.inventory[item] ?? 0) < 1) {
    return {
      ok: false,
      reason: `no ${item} in the inventory to equip`,
      missing: { predicate: 'has_item', detail: { item, count: 1 } },
    };
  }
  return { ok: true };
}
