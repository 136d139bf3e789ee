import {
  betterTool,
  climbingBlockCount,
  dropsOf,
  type GuardContext,
  type GuardResult,
  isReplaceable,
  isSolidBlock,
  type Vec3Like,
} from 'verbtree';
import { feetCell, wayOut } from './cells.js';
import type { LeaveShelterArgs } from './schema.js';

const at = (c: Vec3Like) => `(${c.x}, ${c.y}, ${c.z})`;

/**
 * `to` lies where the shelter's way out leads, each cell to dig is a block that can be dug (or open already), the
 * cells the bot rises through and `to` with the head's cell over it are open (or dug on the way), `to` and each step
 * of a staircase have a floor, and the pack holds a
 * block for every block of the rise: any block it may climb on (climbingBlocks, of any kinds), with what digging the
 * way out gives back (the hole's cover, dug with the best tool at hand).
 */
export function leaveShelterGuard({ world, observation }: GuardContext, args: LeaveShelterArgs): GuardResult {
  const feet = feetCell(observation.position);
  const way = wayOut(args, feet);
  if (way.misfit) return { ok: false, reason: `to ${at(args.to)}: out of ${args.shelter} it must lie ${way.misfit}` };
  const name = (cell: Vec3Like) => world.blockAt(cell)?.name;
  for (const cell of way.dig) {
    const block = world.blockAt(cell);
    if (!block) return { ok: false, reason: `the cell at ${at(cell)} is not loaded` };
    if (!isReplaceable(block.name) && !block.diggable)
      return { ok: false, reason: `${block.name} at ${at(cell)} cannot be dug: no way out there` };
  }
  const rising = Array.from({ length: way.rise }, (_, i) => ({ ...feet, y: feet.y + 2 + i }));
  const dug = (cell: Vec3Like) => way.dig.some((d) => d.x === cell.x && d.y === cell.y && d.z === cell.z);
  const standing = args.shelter === 'pillar_up' ? [] : [args.to, { ...args.to, y: args.to.y + 1 }];
  for (const cell of [...rising.slice(1), ...standing.filter((c) => !dug(c))])
    if (!isReplaceable(name(cell) ?? 'stone'))
      return { ok: false, reason: `${name(cell)} at ${at(cell)} is in the way` };
  for (const { x, y, z } of way.floors) {
    const floor = { x, y: y - 1, z };
    if (!isSolidBlock(name(floor) ?? 'air')) return { ok: false, reason: `no ground at ${at(floor)} to stand on` };
  }
  if (way.rise === 0) return { ok: true };
  const have = climbingBlockCount(observation.inventory) + climbingBlockCount(dugOut(world, way.dig, observation));
  if (have >= way.rise) return { ok: true };
  return {
    ok: false,
    reason: `climbing out needs ${way.rise} blocks to stand on, the inventory holds ${have} (dirt, cobblestone, planks or logs)`,
    missing: { predicate: 'has_item', detail: { item: 'dirt', count: way.rise - have } },
  };
}

/** What digging `cells` gives, each with the best tool at hand. */
function dugOut(
  world: GuardContext['world'],
  cells: readonly Vec3Like[],
  { heldItem, inventory }: GuardContext['observation'],
) {
  const dug: Record<string, number> = {};
  for (const cell of cells) {
    const name = world.blockAt(cell)?.name ?? 'air';
    if (isReplaceable(name)) continue;
    for (const item of dropsOf(name, betterTool(name, heldItem, inventory) ?? heldItem))
      dug[item] = (dug[item] ?? 0) + 1;
  }
  return dug;
}
