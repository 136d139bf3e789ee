import type { Vec3Like } from 'verbtree';

/** How far a survival player can dig or place, eye to block centre (vanilla 4.5). */
export const REACH = 4.5;
const EYE_HEIGHT = 1.62;

/** True when the bot standing at `feet` can dig or place at `cell` without moving. */
export function withinReach(feet: Vec3Like, cell: Vec3Like): boolean {
  const dx = Math.floor(cell.x) + 0.5 - feet.x;
  const dy = Math.floor(cell.y) + 0.5 - (feet.y + EYE_HEIGHT);
  const dz = Math.floor(cell.z) + 0.5 - feet.z;
  return Math.hypot(dx, dy, dz) <= REACH;
}
