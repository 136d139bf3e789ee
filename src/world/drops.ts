import type { DroppedItem, EntityInfo, Vec3Like } from '../contracts/world.js';

/** The dropped items among `entities` within `radius` of `around`, as an observation reports them. */
export function dropsWithin(entities: readonly EntityInfo[], around: Vec3Like, radius: number): DroppedItem[] {
  const drops: DroppedItem[] = [];
  for (const entity of entities) {
    if (entity.kind !== 'item' || !entity.item) continue;
    const { x, y, z } = entity.position;
    if (Math.hypot(x - around.x, y - around.y, z - around.z) > radius) continue;
    drops.push({ name: entity.item.name, count: entity.item.count, position: { x, y, z } });
  }
  return drops;
}
