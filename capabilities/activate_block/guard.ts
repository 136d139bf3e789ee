import type { GuardContext, GuardResult } from 'verbtree';
import type { ActivateBlockArgs } from './schema.js';
import { aimOf } from './target.js';

/** A block that using does something to, the item asked for in the pack, and a world that can use blocks. */
export function activateGuard({ world, observation }: GuardContext, args: ActivateBlockArgs): GuardResult {
  if (!world.activate) return { ok: false, reason: `the ${world.kind} world cannot use blocks` };
  if (args.item && (observation.inventory[args.item] ?? 0) < 1) {
    return {
      ok: false,
      reason: `holding ${args.item} was asked and the inventory holds none`,
      missing: { predicate: 'has_item', detail: { item: args.item, count: 1 } },
    };
  }
  const aim = aimOf(args, observation);
  if (!aim) return { ok: false, reason: 'the block was not observed' };
  return aim.ok ? { ok: true } : { ok: false, reason: aim.reason };
}
