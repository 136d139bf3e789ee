import { createRequire } from 'node:module';
import type { Bot } from 'mineflayer';
import type { Movements } from 'mineflayer-pathfinder';
import { Vec3 } from 'vec3';
import type { Vec3Like } from '../../contracts/world.js';
import { isWaterFilled } from '../breath-rules.js';

const require = createRequire(import.meta.url);

/** pathfinder's A* node and neighbour (its `Move`): a cell, the blocks left to place, its cost. */
interface PathMove {
  x: number;
  y: number;
  z: number;
  remainingBlocks: number;
}
type MoveClass = new (x: number, y: number, z: number, remainingBlocks: number, cost: number) => PathMove;

const CARDINAL = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
] as const;
/** How far above a swimming node its water may reach (pathfinder swims a block or two under the surface). */
const MAX_DEPTH_ABOVE = 3;
/** A climb out of water costs a jump and a step, as pathfinder's own jump up does. */
const CLIMB_OUT_COST = 2;

/**
 * Lets pathfinder climb out of deep water where the game does. pathfinder swims, but its only ways out of water are a
 * step onto ground level with its node (water one block deep) and a jump measured from the block under the node,
 * which in deeper water is water: so it never leaves a pool, river or channel deeper than a block, and a bot sent
 * across one swims in, finds no path out and stays. In the game (and in mineflayer's physics, which a server trusts) a
 * swimmer holding jump and forward climbs onto a bank whose top is level with the water's top block (one block above
 * the water cell it floats in), not onto a higher one. This adds that move: from a water node to the cell above such
 * a bank, when the water there is open to the air and there is head room.
 */
export function climbOutOfWater(bot: Bot, movements: Movements): Movements {
  const Move = require('mineflayer-pathfinder/lib/move.js') as MoveClass;
  const blockAt = (x: number, y: number, z: number) => bot.blockAt(new Vec3(x, y, z), false);
  const isWater = (x: number, y: number, z: number) => {
    const name = blockAt(x, y, z)?.name;
    return name !== undefined && isWaterFilled(name);
  };
  const liquidCost = (movements as unknown as { liquidCost?: number }).liquidCost ?? 1;
  const isSolid = (x: number, y: number, z: number) => blockAt(x, y, z)?.boundingBox === 'block';
  const isOpen = (x: number, y: number, z: number) => {
    const block = blockAt(x, y, z);
    return block !== null && block.boundingBox === 'empty' && !isWater(x, y, z) && block.name !== 'lava';
  };

  const climbs = (node: PathMove): PathMove[] => {
    if (!isWater(node.x, node.y, node.z)) return [];
    let top = node.y;
    while (top < node.y + MAX_DEPTH_ABOVE && isWater(node.x, top + 1, node.z)) top++;
    if (!isOpen(node.x, top + 1, node.z) || !isOpen(node.x, top + 2, node.z)) return [];
    const moves: PathMove[] = [];
    for (const [dx, dz] of CARDINAL) {
      const [x, z] = [node.x + dx, node.z + dz];
      if (!isSolid(x, top, z) || !isOpen(x, top + 1, z) || !isOpen(x, top + 2, z)) continue;
      moves.push(new Move(x, top + 1, z, node.remainingBlocks, CLIMB_OUT_COST + (top - node.y) + liquidCost));
    }
    return moves;
  };

  const neighbours = movements.getNeighbors.bind(movements) as unknown as (node: PathMove) => PathMove[];
  (movements as unknown as { getNeighbors: (node: PathMove) => PathMove[] }).getNeighbors = (node) => [
    ...neighbours(node),
    ...climbs(node),
  ];
  return movements;
}

/**
 * Where a path that does not reach its goal would take a bot on dry ground into water: the index of its first node in
 * water and the water cell it ends in (or, when it leaves the water again, its last node in water). Only a path to the
 * goal promises a way out of the water it crosses: pathfinder's closest point may lie in water it cannot leave, or
 * beyond water it would leave only to find the goal still out of reach. Null when it keeps to dry ground.
 */
export function waterAhead(bot: Bot, path: readonly Vec3Like[]): { from: number; water: Vec3Like } | null {
  const inWater = (p: Vec3Like) => {
    const name = bot.blockAt(new Vec3(p.x, p.y, p.z), false)?.name;
    return name !== undefined && isWaterFilled(name);
  };
  const from = path.findIndex(inWater);
  if (from < 0) return null;
  let last = from;
  while (last + 1 < path.length && inWater(path[last + 1]!)) last++;
  const { x, y, z } = path[last]!;
  return { from, water: { x: Math.floor(x), y: Math.floor(y), z: Math.floor(z) } };
}

/** The water cell the bot's feet are in, or null on dry ground. */
export function waterUnder(bot: Bot): Vec3Like | null {
  const { x, y, z } = bot.entity.position.floored();
  const name = bot.blockAt(new Vec3(x, y, z), false)?.name;
  return name !== undefined && isWaterFilled(name) ? { x, y, z } : null;
}
