import type { Bot } from 'mineflayer';
import type { goals as PathfinderGoals } from 'mineflayer-pathfinder';
import { Vec3 } from 'vec3';

/*
 * A walk to a goal beyond the chunks the bot has loaded (farther than the server's view distance) cannot reach it in
 * what the bot knows: pathfinder treats an unloaded block as solid nothing, so its A* expands every node within its
 * search bound (the ellipse of cost `searchRadius` around the straight line, thousands of cells) until its think
 * timeout, and walks to the best node it saw. Each chunk that loads beside the searched ones on the way resets the path
 * and starts that exhaustive search over. A 75-block walk on flat ground expanded about 7,200 nodes in 6 searches
 * (2.4 s of CPU) where a 35-block one expanded 210; in the fleet bench's crowd of 300, whose far rows lie past the
 * view distance, the bots' searches were most of a worker's CPU.
 *
 * While the goal's column is not loaded, this goal also ends a search at the frontier: a node at the edge of the
 * loaded world whose next column toward the goal is not loaded. A* then heads for the goal as it would, and stops at
 * the edge nearest it. As the bot walks there the server sends the chunks ahead, pathfinder resets the path on each
 * (as before) and searches again from where the bot is, to the goal itself once its column is loaded. A bot that gets
 * to the frontier before the chunks beyond it (a slow server) is told it stopped short (`stoppedShort`), so the walk
 * searches again when a chunk loads and never takes the frontier for the goal.
 */

type Goal = PathfinderGoals.Goal;
interface Node {
  x: number;
  y: number;
  z: number;
}

/** Columns are 16 blocks wide: the last block of a column in a direction, and the first. */
const COLUMN_EDGE = { toward: 15, back: 0 };

export interface FrontierGoal extends Goal {
  /** True while the goal's column is not loaded: a bot reported at the goal has stopped at the frontier. */
  stoppedShort(): boolean;
}

/** `inner`, whose column holds `target`, searched only as far as the loaded world's edge toward it (see above). */
export function towardFrontier(bot: Bot, inner: Goal, target: { x: number; z: number }): FrontierGoal {
  const loaded = (x: number, z: number) => bot.world.getColumnAt(new Vec3(x, 0, z)) != null;
  const goalUnloaded = () => !loaded(target.x, target.z);
  /** The column next to `node` one step toward the target along an axis is not loaded (checked at a column's edge). */
  const edgeToward = (node: Node, axis: 'x' | 'z'): boolean => {
    const step = Math.sign(Math.floor(target[axis]) - node[axis]);
    if (step === 0 || (node[axis] & 15) !== (step > 0 ? COLUMN_EDGE.toward : COLUMN_EDGE.back)) return false;
    return axis === 'x' ? !loaded(node.x + step, node.z) : !loaded(node.x, node.z + step);
  };
  const atFrontier = (node: Node) => (edgeToward(node, 'x') || edgeToward(node, 'z')) && goalUnloaded();
  return {
    heuristic: (node) => inner.heuristic(node),
    isEnd: (node) => inner.isEnd(node) || atFrontier(node),
    hasChanged: () => inner.hasChanged(),
    isValid: () => inner.isValid(),
    stoppedShort: goalUnloaded,
  };
}
