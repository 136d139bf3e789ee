import type { EntityInfo, Vec3Like } from 'verbtree';
import type { FleeArgs } from './schema.js';

/** Hostiles farther than this are not a reason to flee. */
export const THREAT_RADIUS = 32;

export function distanceBetween(a: Vec3Like, b: Vec3Like): number {
  return Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);
}

/** The centre of a block position, where distances to it are measured from. */
export function blockCentre({ x, y, z }: Vec3Like): Vec3Like {
  return { x: x + 0.5, y, z: z + 0.5 };
}

/**
 * What to run from: the given position, else the centre of the `clearOf` kinds within THREAT_RADIUS (away from all of
 * them, not only the nearest), else the nearest hostile within THREAT_RADIUS, else null.
 */
export function threatPosition(args: FleeArgs, entities: readonly EntityInfo[], position: Vec3Like): Vec3Like | null {
  if (args.from) return blockCentre(args.from);
  if (args.clearOf) {
    const chasers = entities.filter(
      (entity) => args.clearOf!.includes(entity.name) && distanceBetween(entity.position, position) <= THREAT_RADIUS,
    );
    if (chasers.length > 0) return centreOf(chasers.map((entity) => entity.position));
  }
  let nearest: Vec3Like | null = null;
  let best = THREAT_RADIUS;
  for (const entity of entities) {
    if (entity.kind !== 'hostile') continue;
    const d = distanceBetween(entity.position, position);
    if (d <= best) [nearest, best] = [entity.position, d];
  }
  return nearest;
}

function centreOf(points: readonly Vec3Like[]): Vec3Like {
  const sum = points.reduce((s, p) => ({ x: s.x + p.x, y: s.y + p.y, z: s.z + p.z }), { x: 0, y: 0, z: 0 });
  return { x: sum.x / points.length, y: sum.y / points.length, z: sum.z / points.length };
}
