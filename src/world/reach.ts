import type { Vec3Like } from '../contracts/world.js';

/*
 * A survival player's reach, the one rule both worlds enforce (SimWorld's actuators, the mineflayer commands) and
 * the capabilities plan with (`withinReach`), so a leaf never walks short of where the world lets it act.
 */

/** How far a survival player reaches to dig, place or use a block: eyes to the block's centre (vanilla 4.5). */
export const REACH = 4.5;
/** How high a standing player's eyes are above its feet (vanilla 1.62). */
export const EYE_HEIGHT = 1.62;

/** How far the eyes of a player whose feet are at `feet` are from the centre of the block `cell` is in. */
export function reachDistance(feet: Vec3Like, cell: Vec3Like): number {
  const dx = Math.floor(cell.x) + 0.5 - feet.x;
  const dy = Math.floor(cell.y) + 0.5 - (feet.y + EYE_HEIGHT);
  const dz = Math.floor(cell.z) + 0.5 - feet.z;
  return Math.hypot(dx, dy, dz);
}

/** True when a bot standing at `feet` can dig, place at or use the block at `cell` without moving. */
export function withinReach(feet: Vec3Like, cell: Vec3Like): boolean {
  return reachDistance(feet, cell) <= REACH;
}
