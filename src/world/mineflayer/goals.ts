import type { goals as PathfinderGoals } from 'mineflayer-pathfinder';
import type { NavigationGoal, Vec3Like } from '../../contracts/world.js';

type Goals = typeof PathfinderGoals;

/** The pathfinder goal for a verbtree navigation goal. */
export function toPathfinderGoal(goals: Goals, goal: NavigationGoal): PathfinderGoals.Goal {
  switch (goal.kind) {
    case 'block':
      return new goals.GoalBlock(goal.x, goal.y, goal.z);
    case 'near':
      return new goals.GoalNear(goal.x, goal.y, goal.z, goal.range);
    case 'xz':
      return goal.range ? new goals.GoalNearXZ(goal.x, goal.z, goal.range) : new goals.GoalXZ(goal.x, goal.z);
  }
}

/**
 * Whether a position satisfies the goal, by the same rules pathfinder's goals
 * use (block cells, squared ranges). Checked after pathfinder says it arrived,
 * because `goto` also resolves when no path exists at all.
 */
export function isAtGoal(goal: NavigationGoal, position: Vec3Like): boolean {
  const x = Math.floor(position.x);
  const y = Math.floor(position.y);
  const z = Math.floor(position.z);
  switch (goal.kind) {
    case 'block':
      return x === goal.x && y === goal.y && z === goal.z;
    case 'near':
      return (x - goal.x) ** 2 + (y - goal.y) ** 2 + (z - goal.z) ** 2 <= goal.range ** 2;
    case 'xz':
      return goal.range ? (x - goal.x) ** 2 + (z - goal.z) ** 2 <= goal.range ** 2 : x === goal.x && z === goal.z;
  }
}

export function describeGoal(goal: NavigationGoal): string {
  switch (goal.kind) {
    case 'block':
      return `block ${goal.x},${goal.y},${goal.z}`;
    case 'near':
      return `within ${goal.range} of ${goal.x},${goal.y},${goal.z}`;
    case 'xz':
      return `column ${goal.x},${goal.z}${goal.range ? ` (±${goal.range})` : ''}`;
  }
}
