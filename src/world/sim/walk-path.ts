import { type NavigationGoal, WorldError } from '../../contracts/world.js';
import { describeHazardAt } from '../hazards.js';
import { describeGoal, goalHeuristic } from './goals.js';
import type { LocomotionParts } from './locomotion.js';
import type { Operation } from './operation.js';
import { avoidsHazards, findPath } from './path-search.js';
import type { Cell } from './terrain.js';

/**
 * Walks a planned path one block per step. When the search runs out of nodes
 * it walks the partial path to the closest cell found and searches again from
 * there, as mineflayer-pathfinder does; each partial leg must get strictly
 * closer, so this ends. A path the world has broken is replanned.
 */
export function walkPath(
  op: Operation,
  goal: NavigationGoal,
  parts: LocomotionParts,
  faceTowards: (target: Cell) => void,
): void {
  const { body, terrain, stepMs, maxSearchNodes, emitPath, afterMove } = parts;
  let path: Cell[] = [];
  let complete = false;
  let index = 0;
  /** Decided with each plan, as the search decided it: a path out of lava may cross lava. */
  let avoid = true;
  const plan = (): boolean => {
    const here = body.cell();
    avoid = avoidsHazards(terrain, here);
    const result = findPath(terrain, here, goal, maxSearchNodes);
    if (result.status === 'found') {
      emitPath('planned');
      [path, complete, index] = [result.path, true, 0];
      return true;
    }
    if (result.status === 'timeout' && result.partialHeuristic < goalHeuristic(goal, here.x, here.y, here.z)) {
      emitPath('partial');
      [path, complete, index] = [result.partial, false, 0];
      return true;
    }
    emitPath(result.status);
    const why = result.status === 'noPath' ? 'no path exists' : `no path found within ${maxSearchNodes} explored cells`;
    const message = `goto ${describeGoal(goal)}: ${why} (searched ${result.explored} cells)`;
    if (avoid) {
      op.fail(new WorldError('no_path', message));
    } else {
      // Stuck in what burns it: that, not the unreachable goal, is what the caller must hear.
      const hazard = describeHazardAt(({ x, y, z }) => ({ name: terrain.grid.get(x, y, z) }), here);
      op.fail(new WorldError('hazard', `${message}; the bot stands ${hazard} and cannot get out`));
    }
    return false;
  };
  const next = (): void => {
    if (index >= path.length) {
      if (!complete) return void (plan() && next());
      emitPath('reached');
      return op.succeed();
    }
    op.after(stepMs, () => {
      const target = path[index]!;
      // The world changed under the path: replan from here.
      if (!terrain.canMove(body.cell(), target, avoid)) return void (plan() && next());
      faceTowards(target);
      body.setFeet(target.x, target.y, target.z);
      index++;
      afterMove();
      if (op.active) next();
    });
  };
  if (plan()) next();
}
