import type { Vec3Like, WorldPort } from '../contracts/index.js';
import { isUsedOnClick } from '../world/activation.js';
import { withinReach } from '../world/reach.js';

const AIR = new Set(['air', 'cave_air', 'void_air']);
const LIQUID = new Set(['water', 'lava']);
/** How far around the bot a spot is looked for, horizontally and up or down. */
const AROUND = 2;
/** A player's collision box, with a little margin for the server's rounding. */
const BODY_HALF_WIDTH = 0.35;
const BODY_HEIGHT = 1.8;

/**
 * A cell to place a block (a table, a furnace) near the bot: open, on solid ground, clear of the bot's body (which
 * reaches into a neighbouring cell when it stands near an edge), and within reach; the nearest first, level with the
 * feet before a step up or down. On a ledge or a pillar with no such cell, any open cell within reach with a solid face
 * to place against; null when there is none either.
 */
export function spotBeside(world: WorldPort, position: Vec3Like): Vec3Like | null {
  const feet = { x: Math.floor(position.x), y: Math.floor(position.y), z: Math.floor(position.z) };
  const name = (cell: Vec3Like) => world.blockAt(cell)?.name ?? null;
  const open = (cell: Vec3Like) => AIR.has(name(cell) ?? '');
  const solid = (cell: Vec3Like) => {
    const block = name(cell);
    return block !== null && !AIR.has(block) && !LIQUID.has(block) && !isUsedOnClick(block);
  };
  // The bot's body is 0.6 wide and 1.8 tall around its position: standing near an edge it reaches into the next cell,
  // where a server refuses to place.
  const bots = (cell: Vec3Like) =>
    cell.x < position.x + BODY_HALF_WIDTH &&
    cell.x + 1 > position.x - BODY_HALF_WIDTH &&
    cell.z < position.z + BODY_HALF_WIDTH &&
    cell.z + 1 > position.z - BODY_HALF_WIDTH &&
    cell.y < position.y + BODY_HEIGHT &&
    cell.y + 1 > position.y;
  const candidates: Vec3Like[] = [];
  for (let dx = -AROUND; dx <= AROUND; dx++)
    for (let dz = -AROUND; dz <= AROUND; dz++)
      for (const dy of [0, -1, 1]) candidates.push({ x: feet.x + dx, y: feet.y + dy, z: feet.z + dz });
  const usable = candidates.filter((cell) => !bots(cell) && open(cell) && withinReach(position, cell));
  const cost = (cell: Vec3Like) =>
    Math.abs(cell.x - feet.x) + Math.abs(cell.z - feet.z) + Math.abs(cell.y - feet.y) * 2;
  usable.sort((a, b) => cost(a) - cost(b));
  const onGround = usable.find((cell) => solid({ ...cell, y: cell.y - 1 }));
  if (onGround) return onGround;
  const faces = [
    [1, 0, 0],
    [-1, 0, 0],
    [0, 1, 0],
    [0, -1, 0],
    [0, 0, 1],
    [0, 0, -1],
  ] as const;
  return (
    usable.find((cell) => faces.some(([x, y, z]) => solid({ x: cell.x + x, y: cell.y + y, z: cell.z + z }))) ?? null
  );
}
