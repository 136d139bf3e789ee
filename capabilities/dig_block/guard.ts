import type { GuardContext, GuardResult } from '../../src/index.js';
import { describePosition, isAir } from './air.js';
import type { DigBlockArgs } from './schema.js';

export function digBlockGuard({ world }: GuardContext, { position, block }: DigBlockArgs): GuardResult {
  const at = describePosition(position);
  const found = world.blockAt(position);
  if (!found) {
    return {
      ok: false,
      reason: `nothing is known about the block at ${at} (its chunk is not loaded); navigate near it first`,
      missing: { predicate: 'near_position', detail: { ...position } },
    };
  }
  if (isAir(found.name)) return { ok: false, reason: `there is no block to dig at ${at}: it is already ${found.name}` };
  if (block !== undefined && found.name !== block) {
    return { ok: false, reason: `expected ${block} at ${at} but the world shows ${found.name}; re-plan with the block that is there` };
  }
  if (!found.diggable) return { ok: false, reason: `${found.name} at ${at} is unbreakable; choose another block` };
  return { ok: true };
}
