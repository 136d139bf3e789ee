import { dropsNear, type GuardContext, type GuardResult } from 'verbtree';
import type { CollectDropsArgs } from './schema.js';

export function collectDropsGuard(
  { world, observation }: GuardContext,
  { item, radius }: CollectDropsArgs,
): GuardResult {
  if (dropsNear(world.entities(), observation.position, radius, item).length > 0) return { ok: true };
  return {
    ok: false,
    reason: `no drops nearby: no dropped ${item ?? 'item'} within ${radius} blocks; dig or kill first, or widen the radius`,
  };
}
