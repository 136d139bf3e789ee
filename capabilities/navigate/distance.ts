import type { Vec3Like } from '../../src/index.js';
import type { NavigateArgs } from './schema.js';

/** How far `position` is from satisfying the target, in blocks (0 when arrived). */
export function distanceToTarget(position: Vec3Like, target: NavigateArgs['target']): number {
  const dx = position.x - (target.x + 0.5);
  const dz = position.z - (target.z + 0.5);
  switch (target.kind) {
    case 'block': {
      const onBlock = Math.floor(position.x) === target.x && Math.floor(position.z) === target.z && Math.abs(position.y - target.y) < 1;
      return onBlock ? 0 : Math.hypot(dx, position.y - target.y, dz);
    }
    case 'near':
      return Math.max(0, Math.hypot(dx, position.y - target.y, dz) - target.range);
    case 'xz':
      return Math.max(0, Math.hypot(dx, dz) - target.range);
  }
}
