import type { Bot } from 'mineflayer';
import type { Movements } from 'mineflayer-pathfinder';
import { Vec3 } from 'vec3';
import { HAZARD_BODY_DAMAGE, HAZARD_FLOOR_DAMAGE, isBodyHazard, isFloorHazard } from '../hazards.js';

/** pathfinder's A* node and neighbour: a cell, plus its cost and whether it is a parkour jump. */
interface PathMove {
  x: number;
  y: number;
  z: number;
  parkour?: boolean;
}

/**
 * Highest fall (blocks) that does no damage; pathfinder's maxDropDown of 4 counts to the floor block, so it allows the
 * same.
 */
const SAFE_FALL = 3;

/**
 * Makes `movements` refuse every move into or over a hazard, on top of what
 * pathfinder already refuses (walking into lava or fire):
 * - a parkour jump whose gap holds a hazard at any depth, or is deeper than a
 *   safe fall: pathfinder checks only the take-off and landing cells, so it
 *   plans sprint jumps across a 3-wide lava river, and a short jump lands in it;
 * - a move that ends with the body in soul fire or on a magma block or campfire.
 *
 * A bot already in a hazard gets out first (leave-hazard.ts): pathfinder
 * cannot swim out of lava, whatever its rules.
 */
export function guardAgainstHazards(bot: Bot, movements: Movements): Movements {
  const registry = bot.registry;
  const avoid = (movements as unknown as { blocksToAvoid: Set<number> }).blocksToAvoid;
  for (const name of Object.keys(HAZARD_BODY_DAMAGE)) {
    const id = registry.blocksByName[name]?.id;
    if (id !== undefined) avoid.add(id);
  }
  const nameAt = (x: number, y: number, z: number): string => bot.blockAt(new Vec3(x, y, z), false)?.name ?? 'air';
  const solidAt = (x: number, y: number, z: number): boolean =>
    bot.blockAt(new Vec3(x, y, z), false)?.boundingBox === 'block';
  const hurtsAt = (move: PathMove): boolean =>
    isBodyHazard(nameAt(move.x, move.y, move.z)) ||
    isBodyHazard(nameAt(move.x, move.y + 1, move.z)) ||
    isFloorHazard(nameAt(move.x, move.y - 1, move.z));

  /** Whether a jump from `from` to `to` passes over nothing that burns and nothing deeper than a safe fall. */
  const safeGap = (from: PathMove, to: PathMove): boolean => {
    const dx = Math.sign(to.x - from.x);
    const dz = Math.sign(to.z - from.z);
    const length = Math.max(Math.abs(to.x - from.x), Math.abs(to.z - from.z));
    const top = Math.max(from.y, to.y) + 1;
    const lowest = Math.min(from.y, to.y) - SAFE_FALL - 1;
    for (let d = 1; d < length; d++) {
      const [x, z] = [from.x + dx * d, from.z + dz * d];
      let y = top;
      while (y >= lowest && !solidAt(x, y, z)) {
        if (isBodyHazard(nameAt(x, y, z))) return false;
        y--;
      }
      if (y < lowest || Object.hasOwn(HAZARD_FLOOR_DAMAGE, nameAt(x, y, z))) return false;
    }
    return true;
  };

  const neighbours = movements.getNeighbors.bind(movements) as unknown as (node: PathMove) => PathMove[];
  (movements as unknown as { getNeighbors: (node: PathMove) => PathMove[] }).getNeighbors = (node) => {
    const safe: PathMove[] = [];
    for (const move of neighbours(node)) {
      if (move.parkour && !safeGap(node, move)) continue;
      if (!hurtsAt(move)) safe.push(move);
    }
    return safe;
  };
  return movements;
}
