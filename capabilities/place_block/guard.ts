import { type GuardContext, type GuardResult, isReplaceable, occupiedByBot } from 'verbtree';
import { describePosition, NEIGHBOUR_OFFSETS, offset } from './cells.js';
import type { PlaceBlockArgs } from './schema.js';

export function placeBlockGuard({ world, observation }: GuardContext, { position, item }: PlaceBlockArgs): GuardResult {
  const at = describePosition(position);
  if ((observation.inventory[item] ?? 0) < 1) {
    return {
      ok: false,
      reason: `no ${item} in the inventory to place`,
      missing: { predicate: 'has_item', detail: { item, count: 1 } },
    };
  }
  if (occupiedByBot(position, observation.position)) {
    return {
      ok: false,
      reason: `${at} is the bot's own space; placing into it is refused by the server, so move first`,
    };
  }
  const target = world.blockAt(position);
  if (!target) {
    return {
      ok: false,
      reason: `nothing is known about ${at} (its chunk is not loaded); navigate near it first`,
      missing: { predicate: 'near_position', detail: { ...position } },
    };
  }
  if (!isReplaceable(target.name)) {
    return {
      ok: false,
      reason: `${at} already holds ${target.name}; dig it first or choose an empty cell`,
      missing: { predicate: 'cell_empty', detail: { ...position, block: target.name } },
    };
  }
  const hasSupport = NEIGHBOUR_OFFSETS.some((by) => {
    const neighbour = world.blockAt(offset(position, by));
    return neighbour !== null && !isReplaceable(neighbour.name);
  });
  if (!hasSupport)
    return {
      ok: false,
      reason: `nothing to place against: no neighbour of ${at} is solid; place a supporting block first`,
    };
  return { ok: true };
}
