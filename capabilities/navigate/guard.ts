import { distanceToGoal, type GuardContext, type GuardResult } from 'verbtree';
import type { NavigateArgs } from './schema.js';

/** Farther than this, a single step should be split by the planner: pathfinding cost grows too fast. */
export const MAX_NAVIGATION_DISTANCE = 512;

export function navigateGuard({ observation }: GuardContext, args: NavigateArgs): GuardResult {
  const distance = distanceToGoal(observation.position, args.target);
  if (distance > MAX_NAVIGATION_DISTANCE) {
    return {
      ok: false,
      reason: `target is ${Math.round(distance)} blocks away, beyond the ${MAX_NAVIGATION_DISTANCE}-block limit of one step; split the route into waypoints`,
    };
  }
  return { ok: true };
}
