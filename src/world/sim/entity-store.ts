import type { EntityInfo, EntityKind, LivingEntity, ObservationQuery, Vec3Like } from '../../contracts/world.js';
import { entitiesMatching } from '../actuator-rules.js';
import { maxHealth } from '../mob-rules/index.js';
import type { Body } from './body.js';
import { LOWEST_Y, PICKUP_RANGE } from './constants.js';
import type { Cell, Terrain } from './terrain.js';

export interface SpawnEntity {
  name: string;
  kind: EntityKind;
  position: Vec3Like;
  item?: { name: string; count: number };
  /**
   * A mob lives by the game's rules (src/world/mob-rules/: hunts, shoots, burns, strolls) only when this is true; a
   * SimWorld test's mobs stand still unless they ask for it. A scenario's mobs ask for it unless they say `ai: false`.
   */
  ai?: boolean;
  /** A mob's health at spawn (default its kind's, maxHealth). */
  health?: number;
  /** A mob copied mid-act from another world (a fork): what that world showed of it, shown here too and acted on. */
  midAct?: MidAct;
}

/** What a world shows of a mob beyond its place and health: its flags, and a creeper's fuse where it can tell. */
export type MidAct = Pick<EntityInfo, 'swelling' | 'aggressive' | 'fuseTicks'>;

interface SimEntity extends EntityInfo {
  position: { x: number; y: number; z: number };
  /** Mobs and players: what hits have left of their health. */
  health?: number;
  ai: boolean;
}

/** Every entity in the sim world besides the bot, including dropped items waiting to be picked up. */
export class EntityStore {
  private readonly byId = new Map<number, SimEntity>();
  private nextId = 1;

  spawn(entity: SpawnEntity): number {
    const id = this.nextId++;
    const { x, y, z } = entity.position;
    const living = entity.kind === 'hostile' || entity.kind === 'passive' || entity.kind === 'player';
    this.byId.set(id, {
      id,
      name: entity.name,
      kind: entity.kind,
      position: { x, y, z },
      ...(entity.item ? { item: { ...entity.item } } : {}),
      ...(living ? { health: entity.health ?? maxHealth(entity.name) } : {}),
      ai: entity.ai === true && (entity.kind === 'hostile' || entity.kind === 'passive'),
      ...(entity.midAct?.swelling === undefined ? {} : { swelling: entity.midAct.swelling }),
      ...(entity.midAct?.aggressive === undefined ? {} : { aggressive: entity.midAct.aggressive }),
    });
    return id;
  }

  /** The mobs the game's rules drive, as copies whose positions the rules move (see `move`). */
  driven(): { id: number; name: string; position: { x: number; y: number; z: number } }[] {
    const mobs = [];
    for (const { id, name, position, ai } of this.byId.values())
      if (ai) mobs.push({ id, name, position: { ...position } });
    return mobs;
  }

  /** Where every hostile mob stands. */
  hostilePositions(): Vec3Like[] {
    return [...this.byId.values()].filter((e) => e.kind === 'hostile').map((e) => ({ ...e.position }));
  }

  get(id: number): EntityInfo | undefined {
    const entity = this.byId.get(id);
    return entity ? this.info(entity) : undefined;
  }

  /** Takes `amount` off an entity's health; at 0 it is dead and gone, and returned (where it died, for its loot). */
  damage(id: number, amount: number): EntityInfo | null {
    const entity = this.byId.get(id);
    if (entity?.health === undefined) return null;
    entity.health -= amount;
    if (entity.health > 0) return null;
    this.byId.delete(id);
    return this.info(entity);
  }

  /** The living entities a query asks for, with their health. */
  living(query: NonNullable<ObservationQuery['entities']>, at: Vec3Like): LivingEntity[] {
    return entitiesMatching([...this.byId.values()], query, at).map(({ id, name, position, health }) => ({
      id,
      name,
      position: { ...position },
      health: health ?? null,
    }));
  }

  move(id: number, position: Vec3Like): boolean {
    const entity = this.byId.get(id);
    if (!entity) return false;
    entity.position.x = position.x;
    entity.position.y = position.y;
    entity.position.z = position.z;
    return true;
  }

  /** What the mob rules told the world about a mob: its creeper's swell, its aggressive flag (as the server sends them). */
  show(id: number, shown: Pick<EntityInfo, 'swelling' | 'aggressive'>): void {
    const entity = this.byId.get(id);
    if (entity) Object.assign(entity, shown);
  }

  remove(id: number): boolean {
    return this.byId.delete(id);
  }

  /** Copies, so callers cannot move entities behind the store's back. */
  list(): EntityInfo[] {
    return [...this.byId.values()].map((entity) => this.info(entity));
  }

  /** What a caller sees of an entity: a copy, without the health only observations report. */
  private info({ id, name, kind, position, item, swelling, aggressive }: SimEntity): EntityInfo {
    return {
      id,
      name,
      kind,
      position: { ...position },
      ...(item ? { item: { ...item } } : {}),
      ...(swelling !== undefined ? { swelling } : {}),
      ...(aggressive !== undefined ? { aggressive } : {}),
    };
  }

  /** Drops `count` of an item in the middle of a cell (where a broken block was); it falls to the first solid block below. */
  dropItem(terrain: Terrain, cell: Cell, name: string, count = 1): void {
    const restY = terrain.restingY(cell.x, cell.y, cell.z, LOWEST_Y);
    this.spawn({
      name: 'item',
      kind: 'item',
      position: { x: cell.x + 0.5, y: restY, z: cell.z + 0.5 },
      item: { name, count },
    });
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
