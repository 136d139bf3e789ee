import type { AcceptanceResult, Observation } from '../../src/index.js';
import { distanceToTarget } from './distance.js';
import type { NavigateArgs } from './schema.js';

export function navigateAcceptance(_pre: Observation, post: Observation, args: NavigateArgs): AcceptanceResult {
  const remaining = distanceToTarget(post.position, args.target);
  if (remaining <= 0) return { ok: true };
  return { ok: false, unmet: [`at_target: still ${remaining.toFixed(1)} blocks from the ${args.target.kind} target`] };
}
