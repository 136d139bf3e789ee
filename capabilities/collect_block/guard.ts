import {
  blocksFor,
  canHarvestWith,
  type GuardContext,
  type GuardResult,
  harvestToolFor,
  type Vec3Like,
} from 'verbtree';
import type { CollectBlockArgs } from './schema.js';
import { blocksInRadius, originOf } from './search.js';

/**
 * The block is within the radius (of the bot, or of where the step started: see blocksInRadius) with a face in the open (buried stone and ore
 * are not in sight: reaching them means tunnelling), and the pack
 * holds a tool that makes it drop; a missing tool is a sub-goal (craft it).
 */
export function collectBlockGuard({ world }: GuardContext, args: CollectBlockArgs): GuardResult {
  const { block, radius } = args;
  const blocks = blocksFor(block) ?? [];
  // Sight first: a tool is worth crafting only for a block there is.
  if (blocksInRadius(world, args, blocks, 1).length === 0) {
    const at = (p: Vec3Like) => `(${Math.floor(p.x)}, ${Math.floor(p.y)}, ${Math.floor(p.z)})`;
    const [here, start] = [at(world.position()), at(originOf(args, world))];
    const where = here === start ? here : `${here} or of ${start}, where the step started`;
    return {
      ok: false,
      reason: `no ${block} within ${radius} blocks of ${where}; explore, or give a larger radius`,
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
  if (harvestable.length < blocks.length && blocksInRadius(world, args, harvestable, 1).length === 0) {
    return { ok: false, reason: `the ${block} within ${radius} blocks all need a better tool than the pack holds` };
  }
  return { ok: true };
}
