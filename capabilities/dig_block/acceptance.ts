import { type AcceptanceResult, blockKey, type Observation } from '../../src/index.js';
import { describePosition, isAir } from './air.js';
import type { DigBlockArgs } from './schema.js';

export function digBlockAcceptance(pre: Observation, post: Observation, { position }: DigBlockArgs): AcceptanceResult {
  const key = blockKey(position);
  const before = pre.blocks[key];
  const after = post.blocks[key];
  const at = describePosition(position);
  if (after === undefined) return { ok: false, unmet: [`block_removed: the block at ${at} was not observed after the step`] };
  if (!isAir(after)) return { ok: false, unmet: [`block_removed: ${at} still holds ${after}`] };
  // A block that was never there was not dug by this step, so its absence proves nothing.
  if (before === undefined || isAir(before)) {
    return { ok: false, unmet: [`block_removed: ${at} held no block before the step (${before ?? 'not observed'}), so nothing was dug`] };
  }
  return { ok: true };
}
