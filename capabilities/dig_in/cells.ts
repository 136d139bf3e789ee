import type { Vec3Like } from 'verbtree';

/**
 * The hole under a bot whose feet are in `feet`: three cells straight down, dug in order. The bot ends with its feet
 * in the last and its head in the middle one; the first, level with the ground's top, is the cover: it is closed
 * again, placed against the ground beside it (a block needs a face to be placed on, and the cell just above the
 * ground has none).
 */
export function holeCells(feet: Vec3Like): Vec3Like[] {
  return [1, 2, 3].map((down) => ({ x: feet.x, y: feet.y - down, z: feet.z }));
}

export const coverOf = (hole: readonly Vec3Like[]): Vec3Like => hole[0]!;
export const bottomOf = (hole: readonly Vec3Like[]): Vec3Like => hole[2]!;

/** The four cells beside `cell`. */
export function besideOf(cell: Vec3Like): Vec3Like[] {
  return [
    [1, 0],
    [-1, 0],
    [0, 1],
    [0, -1],
  ].map(([dx, dz]) => ({ x: cell.x + dx!, y: cell.y, z: cell.z + dz! }));
}
