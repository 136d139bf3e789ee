import type { GuardContext, GuardResult } from 'verbtree';
import { describePosition, plannedBlocks } from './plan.js';
import type { BuildStructureArgs } from './schema.js';

/** Cells a placement may overwrite; anything else in the way must be dug first. */
const OPEN = new Set([
  'air',
  'cave_air',
  'void_air',
  'water',
  'short_grass',
  'tall_grass',
  'fern',
  'snow',
  'dead_bush',
  'vine',
]);
const LISTED_OBSTACLES = 3;

/** Only blocks not already in place count: a half-built structure needs only the rest. */
export function buildStructureGuard({ world, observation }: GuardContext, args: BuildStructureArgs): GuardResult {
  const needed = new Map<string, number>();
  const obstacles: string[] = [];
  for (const { position, block } of plannedBlocks(args)) {
    const there = world.blockAt(position)?.name;
    if (there === block) continue;
    if (there !== undefined && !OPEN.has(there)) obstacles.push(`${there} at ${describePosition(position)}`);
    needed.set(block, (needed.get(block) ?? 0) + 1);
  }
  if (obstacles.length > 0) {
    const listed = obstacles.slice(0, LISTED_OBSTACLES).join(', ');
    return {
      ok: false,
      reason: `${obstacles.length} blueprint cell(s) are occupied (${listed}); dig them or move the origin`,
    };
  }
  for (const [item, count] of needed) {
    const have = observation.inventory[item] ?? 0;
    if (have < count) {
      return {
        ok: false,
        reason: `the structure needs ${count} more ${item}, the inventory holds ${have}`,
        missing: { predicate: 'has_item', detail: { item, count: count - have } },
      };
    }
  }
  return { ok: true };
}
