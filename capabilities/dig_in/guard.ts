import {
  betterTool,
  chooseBuildingBlock,
  digTimeMs,
  dropsOf,
  type GuardContext,
  type GuardResult,
  type Vec3Like,
} from 'verbtree';
import { holeCells } from './cells.js';
import { groundRefusal } from './ground.js';
import type { DigInArgs } from './schema.js';

/** The three cells must come out quickly enough to matter with hostiles about (dirt by hand: 2.25 s). */
export const DIG_IN_MAX_MS = 4_500;

const feetOf = (p: Vec3Like) => ({ x: Math.floor(p.x), y: Math.floor(p.y), z: Math.floor(p.z) });

/**
 * The ground below is sound to dig in (groundRefusal: three solid blocks over solid ground, no cave beside), the best
 * tool at hand digs them within DIG_IN_MAX_MS, and the pack holds a block for the cover, or what it digs gives one
 * (grass and dirt drop dirt, even to bare hands).
 */
export function digInGuard({ world, observation }: GuardContext, { block }: DigInArgs): GuardResult {
  const hole = holeCells(feetOf(observation.position));
  const refusal = groundRefusal(world, hole);
  if (refusal) return { ok: false, reason: refusal };
  let ms = 0;
  const dug: Record<string, number> = {};
  for (const cell of hole) {
    const name = world.blockAt(cell)!.name;
    const tool = betterTool(name, observation.heldItem, observation.inventory) ?? observation.heldItem;
    ms += digTimeMs(name, tool);
    for (const item of dropsOf(name, tool)) dug[item] = (dug[item] ?? 0) + 1;
  }
  if (ms > DIG_IN_MAX_MS)
    return {
      ok: false,
      reason: `digging in takes ${ms} ms with the best tool at hand, more than ${DIG_IN_MAX_MS}: carry a shovel or a pickaxe`,
    };
  // The first block dug comes into the pack before the cover is placed: grass and dirt close their own hole.
  if (!block && !chooseBuildingBlock(observation.inventory, 1) && chooseBuildingBlock(dug, 1)) return { ok: true };
  const item = block ?? chooseBuildingBlock(observation.inventory, 1) ?? 'dirt';
  if ((observation.inventory[item] ?? 0) < 1)
    return {
      ok: false,
      reason: `closing the hole needs 1 ${item}, the inventory holds none`,
      missing: { predicate: 'has_item', detail: { item, count: 1 } },
    };
  return { ok: true };
}
