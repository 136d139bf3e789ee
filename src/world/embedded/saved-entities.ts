import { Vec3 } from 'vec3';
import type { SavedDrop, SavedItem, SavedPlayer } from './save-file.js';
import type { SquidServer } from './squid-types.js';

/** The part of a flying-squid entity a save reads: dropped items (objects with an item) and mobs. */
export interface SquidEntity {
  id: number;
  type: string;
  entityType?: number;
  uuid?: string;
  name?: string;
  world: unknown;
  position: Vec3;
  velocity?: Vec3;
  yaw?: number;
  pitch?: number;
  health?: number;
  bornTime: number;
  itemId?: number;
  itemCount?: number;
  pickupTime?: number;
  deathTime?: number;
}

export type EntityServer = SquidServer & {
  entities: Record<number, SquidEntity>;
  entityMaxId: number;
  spawnObject(type: number, world: unknown, position: Vec3, options: object): SquidEntity;
};

/**
 * Spawns an entity under the id it had when saved, so a journaled expectation
 * naming it (`entity_gone` of a mob being fought) still means that entity
 * after a reopen. flying-squid numbers entities from one counter; a reopened
 * world restores its entities before anyone joins, in the order of their ids,
 * and the counter then goes on past the highest.
 */
export function spawnWithId<T extends SquidEntity>(serv: EntityServer, id: number, spawn: () => T): T {
  const next = serv.entityMaxId;
  if (serv.entities[id] === undefined && id > 0) serv.entityMaxId = id - 1;
  const entity = spawn();
  serv.entityMaxId = Math.max(next, entity.id);
  return entity;
}

/** The items lying in the world: what each is, where, how it moves, and how long it has lain (for its pickup delay and despawn). */
export function captureDrops(serv: EntityServer, now: number): SavedDrop[] {
  const itemEntity = serv.registry.entitiesByName.item!.id;
  const drops: SavedDrop[] = [];
  for (const entity of Object.values(serv.entities)) {
    if (entity.type !== 'object' || entity.entityType !== itemEntity || entity.itemId === undefined) continue;
    if (entity.world !== serv.overworld) continue;
    const name = serv.registry.items[entity.itemId]?.name;
    if (!name || (entity.itemCount ?? 1) < 1) continue;
    const velocity = entity.velocity ?? new Vec3(0, 0, 0);
    drops.push({
      id: entity.id,
      name,
      count: entity.itemCount ?? 1,
      position: { x: entity.position.x, y: entity.position.y, z: entity.position.z },
      velocity: { x: velocity.x, y: velocity.y, z: velocity.z },
      ageMs: Math.max(0, now - entity.bornTime),
      ...(entity.pickupTime !== undefined ? { pickupDelayMs: entity.pickupTime } : {}),
      ...(entity.deathTime !== undefined ? { despawnMs: entity.deathTime } : {}),
    });
  }
  return drops;
}

/** Items a save spills where a player stood (a cursor's stack the pack had no room for), as drops of the save. */
export function spilledDrops(spilled: readonly { at: SavedPlayer['position']; item: SavedItem }[]): SavedDrop[] {
  return spilled.map(({ at, item }) => ({
    id: 0,
    name: item.name,
    count: item.count,
    position: at,
    velocity: { x: 0, y: 0, z: 0 },
    ageMs: 0,
  }));
}

/** flying-squid's lifetimes for a drop whose save has none: picked up after half a second, gone after five minutes. */
const PICKUP_DELAY_MS = 500;
const DESPAWN_MS = 5 * 60 * 1000;

/** Lays saved drops where they lay, of the age they had: they fall, are picked up and despawn as any drop. */
export function restoreDrop(serv: EntityServer, drop: SavedDrop, now: number): void {
  const item = serv.registry.itemsByName[drop.name];
  if (!item) {
    serv.warn(`a saved drop of ${drop.name} is not an item in this version; left out`);
    return;
  }
  const spawn = () =>
    serv.spawnObject(
      serv.registry.entitiesByName.item!.id,
      serv.overworld,
      new Vec3(drop.position.x, drop.position.y, drop.position.z),
      {
        velocity: new Vec3(drop.velocity.x, drop.velocity.y, drop.velocity.z),
        itemId: item.id,
        itemCount: drop.count,
        pickupTime: drop.pickupDelayMs ?? PICKUP_DELAY_MS,
        deathTime: drop.despawnMs ?? DESPAWN_MS,
      },
    );
  const entity = drop.id > 0 ? spawnWithId(serv, drop.id, spawn) : spawn();
  entity.bornTime = now - drop.ageMs;
}
