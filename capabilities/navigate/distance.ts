import type { Vec3Like } from '../../src/index.js';
import type { NavigateArgs } from './schema.js';

/**
 * How far `position` is from satisfying the target, in blocks (0 when arrived).
 * Measured between block cells, as the worlds' goals are (mineflayer-pathfinder's
 * rules): a real bot stops anywhere inside the first cell that satisfies its goal,
 * often off the cell's centre, and must count as arrived there.
 */
export function distanceToTarget(position: Vec3Like, target: NavigateArgs['target']): number {
  const dx = Math.floor(position.x) - target.x;
  const dz = Math.floor(position.z) - target.z;
  switch (target.kind) {
    case 'block': {
      const dy = Math.abs(position.y - target.y) < 1 ? 0 : Math.floor(position.y) - target.y;
      return Math.hypot(dx, dy, dz);
    }
    case 'near':
      return Math.max(0, Math.hypot(dx, Math.floor(position.y) - target.y, dz) - target.range);
    case 'xz':
      return Math.max(0, Math.hypot(dx, dz) - target.range);
  }
}
