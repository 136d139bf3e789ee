import type { EntityInfo, Vec3Like } from 'verbtree';

/** Dropped item entities within `radius` of `from`, nearest first; only those of `item` when given. */
export function dropsNear(entities: readonly EntityInfo[], from: Vec3Like, radius: number, item?: string): EntityInfo[] {
  const distance = (e: EntityInfo) => Math.hypot(e.position.x - from.x, e.position.y - from.y, e.position.z - from.z);
  return entities
    .filter((e) => e.kind === 'item' && (item === undefined || e.item?.name === item) && distance(e) <= radius)
    .sort((a, b) => distance(a) - distance(b));
}
