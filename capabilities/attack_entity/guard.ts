import { describeTarget, type GuardContext, type GuardResult, targetOf } from 'verbtree';
import type { AttackEntityArgs } from './schema.js';

/** A mob of the kind (or the id) is in sight; a player is never a target. */
export function attackEntityGuard({ observation }: GuardContext, args: AttackEntityArgs): GuardResult {
  const target = targetOf(args, observation);
  if (!target)
    return {
      ok: false,
      reason: `no ${describeTarget(args)} alive within ${args.within} blocks`,
      missing: { predicate: 'entity_in_sight', detail: { target: args.target } },
    };
  if (target.name === 'player')
    return { ok: false, reason: `entity ${target.id} is a player: attack_entity fights mobs` };
  return { ok: true };
}
