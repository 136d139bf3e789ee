import {
  chooseBuildingBlock,
  type GuardContext,
  type GuardResult,
  isReplaceable,
  isSolidBlock,
  type Vec3Like,
} from 'verbtree';
import { feetCell, wallCells } from './cells.js';
import type { WallInArgs } from './schema.js';

const at = (c: Vec3Like) => `(${c.x}, ${c.y}, ${c.z})`;

/**
 * Every wall cell is solid already or open to a block; a feet-level cell to fill has a floor to place it on; the pack
 * holds a block for every open cell.
 */
export function wallInGuard({ world, observation }: GuardContext, { block }: WallInArgs): GuardResult {
  const feet = feetCell(observation.position);
  let open = 0;
  for (const cell of wallCells(feet)) {
    const name = world.blockAt(cell)?.name;
    if (name === undefined) return { ok: false, reason: `the wall cell at ${at(cell)} is not loaded` };
    if (isSolidBlock(name)) continue;
    if (!isReplaceable(name))
      return { ok: false, reason: `${name} at ${at(cell)} is neither solid nor open to a block: no wall there` };
    const below = world.blockAt({ ...cell, y: cell.y - 1 })?.name;
    if (cell.y === feet.y && (below === undefined || !isSolidBlock(below)))
      return { ok: false, reason: `no floor under the wall cell at ${at(cell)} to place a block on` };
    open++;
  }
  const item = block ?? chooseBuildingBlock(observation.inventory, open) ?? 'dirt';
  const have = observation.inventory[item] ?? 0;
  if (have < open)
    return {
      ok: false,
      reason: `a wall around the bot needs ${open} ${item}, the inventory holds ${have}`,
      missing: { predicate: 'has_item', detail: { item, count: open - have } },
    };
  return { ok: true };
}
