import type { GuardContext, GuardResult } from 'verbtree';
import type { FleeArgs } from './schema.js';
import { THREAT_RADIUS, threatPosition } from './threat.js';

export function fleeGuard({ world, observation }: GuardContext, args: FleeArgs): GuardResult {
  if (args.from || threatPosition(args, world.entities(), observation.position)) return { ok: true };
  return {
    ok: false,
    reason: `nothing to flee from: no hostile within ${THREAT_RADIUS} blocks; give \`from\` to flee a position`,
  };
}
