import type { Vec3Like } from 'verbtree';

/** How far apart the rings of lookouts are: a bot sees 32 blocks, so rings 16 apart overlap. */
export const RING_STEP = 16;
const DIRECTIONS = 8;

/**
 * The points to walk to, nearest ring first: eight on each ring around `start`,
 * every 16 blocks out to `radius`, each ring turned by half a direction so its
 * lookouts fall between the last ring's.
 */
export function lookouts(start: Vec3Like, radius: number): { x: number; z: number }[] {
  const points: { x: number; z: number }[] = [];
  for (let ring = 1; ring * RING_STEP <= radius; ring++) {
    const distance = ring * RING_STEP;
    for (let i = 0; i < DIRECTIONS; i++) {
      const angle = ((i + (ring % 2) / 2) / DIRECTIONS) * 2 * Math.PI;
      points.push({
        x: Math.round(start.x + Math.cos(angle) * distance),
        z: Math.round(start.z + Math.sin(angle) * distance),
      });
    }
  }
  return points;
}
