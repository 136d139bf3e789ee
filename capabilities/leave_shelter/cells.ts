import type { Vec3Like } from 'verbtree';
import type { LeaveShelterArgs } from './schema.js';

/** The cell the bot's feet are in. */
export function feetCell(position: Vec3Like): Vec3Like {
  return { x: Math.floor(position.x), y: Math.floor(position.y), z: Math.floor(position.z) };
}

/**
 * How the bot gets out: the cells it digs (in order, each step's after the bot stood on the step before), how many
 * blocks it rises in place after, the steps of a staircase it walks up, the floors it stands on, and where it goes.
 */
export interface WayOut {
  dig: Vec3Like[];
  rise: number;
  /** A staircase's steps, each cut (its three cells in `dig`) then stood on; empty for any other way. */
  steps: Vec3Like[];
  /** The cells that must have solid ground under them: each step and `to` (none down a pillar). */
  floors: Vec3Like[];
  /** Why `to` does not fit the shelter, or null. */
  misfit: string | null;
}

const HOLE_MISFIT = 'beside the hole 1 or more blocks up, or n cells out along x or z and n blocks up (a staircase)';

/**
 * The way out of `shelter` from `feet` to `to`: down a pillar, the blocks under the feet one by one (the bot falls
 * into each); through a wall, its two cells on the side of `to` (feet and head level); out of a hole, either the
 * cover over the head, a rise of a block less than `to` is above the feet and a step up onto it beside the hole, or,
 * `to` n cells out and n blocks up, a staircase: each step's two body cells and the headroom over the step before
 * (the cover for the first) cut, the bot standing on each in turn.
 */
export function wayOut({ shelter, to }: LeaveShelterArgs, feet: Vec3Like): WayOut {
  const [dx, dz] = [Math.sign(to.x - feet.x), Math.sign(to.z - feet.z)];
  const along = Math.abs(to.x - feet.x) + Math.abs(to.z - feet.z);
  const straight = dx === 0 || dz === 0;
  switch (shelter) {
    case 'pillar_up': {
      const misfit = to.x !== feet.x || to.z !== feet.z || to.y >= feet.y ? 'straight below the bot' : null;
      const dig = Array.from({ length: Math.max(0, feet.y - to.y) }, (_, i) => ({ ...feet, y: feet.y - 1 - i }));
      return { dig, rise: 0, steps: [], floors: [], misfit };
    }
    case 'wall_in': {
      const misfit = to.y !== feet.y || along !== 2 || !straight ? 'two cells out along x or z' : null;
      const side = { x: feet.x + dx, z: feet.z + dz };
      return { dig: [0, 1].map((up) => ({ ...side, y: feet.y + up })), rise: 0, steps: [], floors: [to], misfit };
    }
    case 'dig_in': {
      if (along === 1 && to.y >= feet.y + 1) {
        const rise = to.y - feet.y - 1;
        return { dig: [{ ...feet, y: feet.y + 2 }], rise, steps: [], floors: [to], misfit: null };
      }
      const misfit = along < 2 || !straight || to.y !== feet.y + along ? HOLE_MISFIT : null;
      const steps = Array.from({ length: misfit ? 0 : along }, (_, i) => ({
        x: feet.x + dx * (i + 1),
        y: feet.y + i + 1,
        z: feet.z + dz * (i + 1),
      }));
      const dig = steps.flatMap((s) => [{ x: s.x - dx, y: s.y + 1, z: s.z - dz }, s, { ...s, y: s.y + 1 }]);
      return { dig, rise: 0, steps, floors: steps, misfit };
    }
  }
}
