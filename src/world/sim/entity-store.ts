import type { EntityInfo, EntityKind, Vec3Like } from '../../contracts/world.js';
import type { Body } from './body.js';
import { LOWEST_Y, PICKUP_RANGE } from './constants.js';
import type { Cell, Terrain } from './terrain.js';

export interface SpawnEntity {
  name: string;
  kind: EntityKind;
  position: Vec3Like;
  item?: { name: string; count: number };
}

interface SimEntity extends EntityInfo {
  position: { x: number; y: number; z: number };
}

/** Every entity in the sim world besides the bot, including dropped items waiting to be picked up. */
export class EntityStore {
  private readonly byId = new Map<number, SimEntity>();
  private nextId = 1;

  spawn(entity: SpawnEntity): number {
    const id = this.nextId++;
    const { x, y, z } = entity.position;
    this.byId.set(id, { id, name: entity.name, kind: entity.kind, position: { x, y, z }, ...(entity.item ? { item: { ...entity.item } } : {}) });
    return id;
  }

  move(id: number, position: Vec3Like): boolean {
    const entity = this.byId.get(id);
    if (!entity) return false;
    entity.position.x = position.x;
    entity.position.y = position.y;
    entity.position.z = position.z;
    return true;
  }

  remove(id: number): boolean {
    return this.byId.delete(id);
  }

  /** Copies, so callers cannot move entities behind the store's back. */
  list(): EntityInfo[] {
    return [...this.byId.values()].map((entity) => ({
      ...entity,
      position: { ...entity.position },
      ...(entity.item ? { item: { ...entity.item } } : {}),
    }));
  }

  /** Drops one item where a broken block was; it falls to the first solid block below. */
  dropItem(terrain: Terrain, cell: Cell, name: string): void {
    const restY = terrain.restingY(cell.x, cell.y, cell.z, LOWEST_Y);
    this.spawn({ name: 'item', kind: 'item', position: { x: cell.x + 0.5, y: restY, z: cell.z + 0.5 }, item: { name, count: 1 } });
  }

  pickUpNear(body: Body): void {
    for (const entity of this.byId.values()) {
      if (entity.kind !== 'item' || !entity.item) continue;
      const { x, y, z } = entity.position;
      const distanceSq = (x - body.feet.x) ** 2 + (y - body.feet.y) ** 2 + (z - body.feet.z) ** 2;
      if (distanceSq <= PICKUP_RANGE * PICKUP_RANGE) {
        body.addItems(entity.item.name, entity.item.count);
        this.byId.delete(entity.id);
      }
    }
  }
}
