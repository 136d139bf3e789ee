import type { Vec3Like } from 'verbtree';

/** The cell the bot's feet are in. */
export function feetCell(position: Vec3Like): Vec3Like {
  return { x: Math.floor(position.x), y: Math.floor(position.y), z: Math.floor(position.z) };
}

const SIDES = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
] as const;

/**
 * The wall around a bot whose feet are in `feet`: the four sides at feet level, then at head level (each head-level
 * block is placed on the one below it).
 */
export function wallCells(feet: Vec3Like): Vec3Like[] {
  return [0, 1].flatMap((up) => SIDES.map(([dx, dz]) => ({ x: feet.x + dx, y: feet.y + up, z: feet.z + dz })));
}
