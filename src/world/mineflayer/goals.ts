import type { Bot } from 'mineflayer';
import type { goals as PathfinderGoals } from 'mineflayer-pathfinder';
import { Vec3 } from 'vec3';
import { type Footing, unmetGoal } from '../../contracts/stands-on.js';
import type { NavigationGoal, Vec3Like } from '../../contracts/world.js';
import { footingOf } from '../stands-on.js';

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

/** The bot's footing as its client's physics holds it, the ground read from the collision shapes of the blocks it knows. */
export function botFooting(bot: Bot, at: Vec3Like = bot.entity.position): Footing {
  return footingOf(at, bot.entity.onGround, ({ x, y, z }) => topsOf(bot.blockAt(new Vec3(x, y, z), false)?.shapes));
}

/**
 * Null when the bot stands where the goal is met, by the one rule (src/contracts/stands-on.ts); otherwise why not.
 * Checked after pathfinder says it arrived: `goto` also resolves when no path exists at all, and pathfinder counts a
 * bot on any ground thinner than a block as standing in the cell above, in the air or not.
 */
export function unmetArrival(goal: NavigationGoal, bot: Bot): string | null {
  return unmetGoal(goal, bot.entity.position, botFooting(bot));
}

function topsOf(shapes: readonly (readonly number[])[] | undefined): number[] {
  return (shapes ?? []).map((box) => box[4]!);
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
