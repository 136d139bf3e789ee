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

/** A mob's flags in its entity metadata (minecraft-data's metadataKeys: `mob_flags`, a byte); bit 4 is "aggressive". */
const MOB_FLAGS_INDEX = 15;
const AGGRESSIVE_FLAG = 4;
/** A creeper's swell direction (`swell_dir`, an int): 1 while its fuse burns, -1 idle or going out. */
const SWELL_DIR_INDEX = 16;

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
  const flags = entity.metadata?.[MOB_FLAGS_INDEX] as unknown;
  const mob = info.kind === 'hostile' || info.kind === 'passive';
  if (mob && typeof flags === 'number') info.aggressive = (flags & AGGRESSIVE_FLAG) !== 0;
  const swell = entity.metadata?.[SWELL_DIR_INDEX] as unknown;
  if (entity.name === 'creeper' && typeof swell === 'number') info.swelling = swell > 0;
  return info;
}

/** What kind of entity it is, read from its type alone (no Info built). */
export function kindOf(entity: Entity): EntityKind {
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
