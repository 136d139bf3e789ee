import {
  betterTool,
  chooseBuildingBlock,
  climbingBlockCount,
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
 * tool at hand digs them within DIG_IN_MAX_MS, the pack holds a block for the cover, or what it digs gives one
 * (grass and dirt drop dirt, even to bare hands), and the bot can climb out again (climbOutRefusal).
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
  const climbOut = climbOutRefusal(observation, dug, block);
  if (climbOut) return { ok: false, reason: climbOut };
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

/** leave_shelter rises from the hole's floor to a block under the ground's top, then steps out. */
const CLIMB_OUT_BLOCKS = 2;

/**
 * A hole the bot could not climb out of is no shelter but a trap (leave_shelter rises two blocks on blocks it places):
 * why, or null when the blocks held and dug, less the cover, with the cover back once dug out, make the two.
 */
function climbOutRefusal(
  { inventory, heldItem }: GuardContext['observation'],
  dug: Readonly<Record<string, number>>,
  block: string | undefined,
): string | null {
  const after = { ...inventory };
  for (const [item, count] of Object.entries(dug)) after[item] = (after[item] ?? 0) + count;
  const cover = block ?? chooseBuildingBlock(after, 1);
  if (!cover) return null;
  const back = dropsOf(cover, betterTool(cover, heldItem, after) ?? heldItem).includes(cover) ? 1 : 0;
  const left = climbingBlockCount(after) - 1 + back;
  if (left >= CLIMB_OUT_BLOCKS) return null;
  return `climbing out of the hole would take ${CLIMB_OUT_BLOCKS} blocks to stand on, the pack would hold ${left} after the cover: carry dirt, cobblestone or planks`;
}
