import type { Vec3Like } from 'verbtree';
import type { LeaveShelterArgs } from './schema.js';

/** The cell the bot's feet are in. */
export function feetCell(position: Vec3Like): Vec3Like {
  return { x: Math.floor(position.x), y: Math.floor(position.y), z: Math.floor(position.z) };
}

/** How the bot gets out: the cells it digs (in order), how many blocks it rises in place after, and where it goes. */
export interface WayOut {
  dig: Vec3Like[];
  rise: number;
  /** Why `to` does not fit the shelter, or null. */
  misfit: string | null;
}

/**
 * The way out of `shelter` from `feet` to `to`: down a pillar, the blocks under the feet one by one (the bot falls
 * into each); through a wall, its two cells on the side of `to` (feet and head level); out of a hole, the cover over
 * the head, then a rise of a block less than the hole is deep, and a step up onto the ground beside.
 */
export function wayOut({ shelter, to }: LeaveShelterArgs, feet: Vec3Like): WayOut {
  const [dx, dz] = [Math.sign(to.x - feet.x), Math.sign(to.z - feet.z)];
  switch (shelter) {
    case 'pillar_up': {
      const misfit = to.x !== feet.x || to.z !== feet.z || to.y >= feet.y ? 'straight below the bot' : null;
      const dig = Array.from({ length: Math.max(0, feet.y - to.y) }, (_, i) => ({ ...feet, y: feet.y - 1 - i }));
      return { dig, rise: 0, misfit };
    }
    case 'wall_in': {
      const along = Math.abs(to.x - feet.x) + Math.abs(to.z - feet.z);
      const misfit = to.y !== feet.y || along !== 2 || (dx !== 0 && dz !== 0) ? 'two cells out along x or z' : null;
      const side = { x: feet.x + dx, z: feet.z + dz };
      return { dig: [0, 1].map((up) => ({ ...side, y: feet.y + up })), rise: 0, misfit };
    }
    case 'dig_in': {
      const beside = Math.abs(to.x - feet.x) + Math.abs(to.z - feet.z) === 1;
      const misfit = !beside || to.y < feet.y + 2 ? 'beside the hole, 2 or more blocks up' : null;
      return { dig: [{ ...feet, y: feet.y + 2 }], rise: Math.max(0, to.y - feet.y - 1), misfit };
    }
  }
}
