import { type AcceptanceResult, blockKey, type Observation } from '../../src/index.js';
import { describePosition, plannedBlocks } from './plan.js';
import type { BuildStructureArgs } from './schema.js';

const LISTED_GAPS = 3;

export function buildStructureAcceptance(_pre: Observation, post: Observation, args: BuildStructureArgs): AcceptanceResult {
  const planned = plannedBlocks(args);
  const gaps = planned.filter(({ position, block }) => post.blocks[blockKey(position)] !== block);
  if (gaps.length === 0) return { ok: true };
  const listed = gaps
    .slice(0, LISTED_GAPS)
    .map(({ position, block }) => `${describePosition(position)} wants ${block}, holds ${post.blocks[blockKey(position)] ?? 'unobserved'}`)
    .join('; ');
  return { ok: false, unmet: [`structure_built: ${gaps.length} of ${planned.length} blocks missing, first: ${listed}`] };
}
