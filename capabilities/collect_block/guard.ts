import { blocksFor, canHarvestWith, type GuardContext, type GuardResult, harvestToolFor } from 'verbtree';
import type { CollectBlockArgs } from './schema.js';

/**
 * The block is within the radius with a face in the open (buried stone and ore
 * are not in sight: reaching them means tunnelling), and the pack
 * holds a tool that makes it drop; a missing tool is a sub-goal (craft it).
 */
export function collectBlockGuard({ world }: GuardContext, { block, radius }: CollectBlockArgs): GuardResult {
  const blocks = blocksFor(block) ?? [];
  // Sight first: a tool is worth crafting only for a block there is.
  if (world.findBlocks({ names: blocks, maxDistance: radius, count: 1, exposed: true }).length === 0) {
    const { x, y, z } = world.position();
    return {
      ok: false,
      reason: `no ${block} within ${radius} blocks of (${Math.floor(x)}, ${Math.floor(y)}, ${Math.floor(z)}); explore, or give a larger radius`,
      missing: { predicate: 'block_in_sight', detail: { block, radius } },
    };
  }
  const inventory = world.inventory();
  const harvestable = blocks.filter((name) => canHarvestWith(name, inventory));
  if (harvestable.length === 0) {
    const tool = harvestToolFor(blocks[0]!);
    return {
      ok: false,
      reason: `${block} drops nothing without ${tool ? `a tool such as ${tool}` : 'the right tool'}, and the pack holds none`,
      missing: { predicate: 'has_item', detail: { item: tool ?? 'wooden_pickaxe', count: 1 } },
    };
  }
  if (
    harvestable.length < blocks.length &&
    world.findBlocks({ names: harvestable, maxDistance: radius, count: 1, exposed: true }).length === 0
  ) {
    return { ok: false, reason: `the ${block} within ${radius} blocks all need a better tool than the pack holds` };
  }
  return { ok: true };
}
