import { type AcceptanceResult, blockKey, type Observation } from '../../src/index.js';
import { describePosition } from './cells.js';
import type { PlaceBlockArgs } from './schema.js';

/** Compares the block name with the item name: true for ordinary blocks, not for items that place another block (redstone → redstone_wire). */
export function placeBlockAcceptance(_pre: Observation, post: Observation, { position, item }: PlaceBlockArgs): AcceptanceResult {
  const after = post.blocks[blockKey(position)];
  if (after === item) return { ok: true };
  const at = describePosition(position);
  return { ok: false, unmet: [`block_placed: ${at} holds ${after ?? 'nothing observed'}, expected ${item}`] };
}
