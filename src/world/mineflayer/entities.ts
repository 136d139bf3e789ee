import type { Entity } from 'prismarine-entity';
import type { EntityInfo, EntityKind } from '../../contracts/world.js';
import { kindOfEntityType } from '../mobs.js';

/**
 * Whether mineflayer actually saw the entity spawn. A movement packet for an
 * entity already destroyed (flying-squid sends some after a pickup) makes
 * mineflayer invent a typeless entity at the origin; those are not real.
 */
export function isSpawned(entity: Entity): boolean {
  return entity.type !== undefined && entity.type !== null;
}

/** How verbtree sees a mineflayer entity: kind from its type, and for drops what lies on the ground. */
export function entityInfo(entity: Entity): EntityInfo {
  const { x, y, z } = entity.position;
  const info: EntityInfo = {
    id: entity.id,
    name: entity.name ?? entity.type ?? 'unknown',
    kind: kindOf(entity),
    position: { x, y, z },
  };
  if (entity.name === 'item') {
    const item = droppedItem(entity);
    if (item) info.item = item;
  }
  return info;
}

function kindOf(entity: Entity): EntityKind {
  if (entity.name === 'item') return 'item';
  if ((entity.type as string) === 'player') return 'player';
  return kindOfEntityType(entity.type) ?? 'other';
}

/**
 * What a dropped-item entity holds; unknown until the server sent its metadata (prismarine-entity throws before that).
 */
function droppedItem(entity: Entity): { name: string; count: number } | null {
  try {
    const item = entity.getDroppedItem();
    return item ? { name: item.name, count: item.count } : null;
  } catch {
    return null;
  }
}
