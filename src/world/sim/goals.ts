import { cellMeetsGoal } from '../../contracts/stands-on.js';
import type { NavigationGoal } from '../../contracts/world.js';

/** Whether a bot standing in cell (x, y, z) meets the goal: the one rule's (src/contracts/stands-on.ts). */
export function goalSatisfied(goal: NavigationGoal, x: number, y: number, z: number): boolean {
  return cellMeetsGoal(goal, { x, y, z });
}

/**
 * A lower bound on the moves left. Each move changes x or z by exactly one, so
 * the Manhattan distance bounds it; a range of r can save at most r·√2 of it.
 */
export function goalHeuristic(goal: NavigationGoal, x: number, _y: number, z: number): number {
  const manhattan = Math.abs(x - Math.floor(goal.x)) + Math.abs(z - Math.floor(goal.z));
  switch (goal.kind) {
    case 'block':
      return manhattan;
    case 'near':
      return Math.max(0, manhattan - goal.range * Math.SQRT2);
    case 'xz':
      return Math.max(0, manhattan - (goal.range ?? 0) * Math.SQRT2);
  }
}

export function describeGoal(goal: NavigationGoal): string {
  switch (goal.kind) {
    case 'block':
      return `block ${goal.x},${goal.y},${goal.z}`;
    case 'near':
      return `near ${goal.x},${goal.y},${goal.z} within ${goal.range}`;
    case 'xz':
      return `xz ${goal.x},${goal.z}${goal.range === undefined ? '' : ` within ${goal.range}`}`;
  }
}
