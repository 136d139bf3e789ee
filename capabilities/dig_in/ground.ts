import { isSolidBlock, type Vec3Like, type WorldPort } from 'verbtree';
import { besideOf, bottomOf, coverOf } from './cells.js';

const at = (c: Vec3Like) => `(${c.x}, ${c.y}, ${c.z})`;
const solid = (world: WorldPort, cell: Vec3Like) => isSolidBlock(world.blockAt(cell)?.name ?? 'air');

/**
 * Why the ground under `hole` is no place to dig in, or null when it is: its three cells solid blocks a tool breaks,
 * the floor the bot will stand on and the block under that solid and loaded (not air, a cave, a liquid, an unloaded
 * chunk: on the embedded server a dig-in fell 6 blocks into a cave), walled on every side where the body will be (no
 * cave opens into the hole), and a face beside the top to place the cover against. The guard judges it at dispatch
 * and the dig again from where the bot stands when it starts: a hit's knock-back can move it to another column.
 */
export function groundRefusal(world: WorldPort, hole: readonly Vec3Like[]): string | null {
  for (const cell of hole) {
    const found = world.blockAt(cell);
    if (!found || !isSolidBlock(found.name) || !found.diggable)
      return `${found?.name ?? 'nothing loaded'} at ${at(cell)}: the ground below is not three solid blocks to dig`;
  }
  const bottom = bottomOf(hole);
  for (const down of [1, 2]) {
    const under = { ...bottom, y: bottom.y - down };
    if (!solid(world, under))
      return `${world.blockAt(under)?.name ?? 'nothing loaded'} at ${at(under)}: no solid ground under the hole to stand on`;
  }
  for (const cell of hole.slice(1).flatMap(besideOf))
    if (!solid(world, cell)) return `the hole would open to the side at ${at(cell)}`;
  if (!besideOf(coverOf(hole)).some((cell) => solid(world, cell)))
    return `nothing beside ${at(coverOf(hole))} to place the cover against`;
  return null;
}
