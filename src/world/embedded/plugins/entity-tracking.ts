import type { EventEmitter } from 'node:events';
import type { Vec3 } from 'vec3';
import { EntityGrid } from '../entity-grid.js';
import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid-types.js';

/** How far an entity moves before who sees it is worked out again (blocks). */
const REFRESH_DISTANCE = 1;
/**
 * How far from where the grid last filed it an entity may be when another one's tracking is worked out: the refresh
 * distance, plus a step still being applied when the query runs.
 */
const GRID_SLACK = REFRESH_DISTANCE + 1;
const BLOCKS_PER_CHUNK = 16;
/** The least view distance vanilla gives a player (chunks), whatever its client asks for. */
const MIN_VIEW_DISTANCE = 2;

/**
 * Vanilla 1.21's tracking range of an entity type (EntityType.clientTrackingRange, in chunks) by minecraft-data's
 * kind of entity: players 32, animals and villagers 10, monsters 8, bats 5, fish and projectiles 4, dropped items
 * and experience orbs 6, other things (boats, minecarts, armor stands, falling blocks) mostly 10.
 */
const TRACKING_CHUNKS: Record<string, number> = {
  player: 32,
  animal: 10,
  passive: 10,
  mob: 10,
  living: 10,
  hostile: 8,
  ambient: 5,
  water_creature: 4,
  projectile: 4,
  item: 6,
  experience_orb: 6,
  other: 10,
};

interface Entity extends EventEmitter {
  id: number;
  type: string;
  entityType?: number | null;
  world: unknown;
  position: Vec3;
  lastPositionPlayersUpdated: Vec3;
  updateAndSpawn(): void;
  getNearbyPlayers(): Player[];
  nearbyPlayers(): Player[];
  /** flying-squid's (pvp.js): a mob it kills is deleted from the server's entities. */
  takeDamage?: (damage: object) => void;
}

interface Player extends Entity {
  /** The view distance its client asked for (chunks); flying-squid sets it from the client's settings. */
  view?: number;
  spawnEntity(entity: Entity): void;
  _client: { write: (this: unknown, name: string, params: object) => void };
  despawnEntities(entities: Entity[]): void;
}

export interface EntityTrackingOptions {
  /** The server's view distance (chunks): vanilla tracks no entity farther than a player's view. */
  viewDistance: number;
  /** A cap on every type's range (blocks), as Paper's entity-tracking-range; none keeps vanilla's ranges. */
  maxRange?: number;
}

/**
 * Entity tracking as a vanilla server does it (ChunkMap.TrackedEntity): a player is sent an entity (spawned on its
 * client) while the entity is within the tracking range of its type, capped by the player's view distance and
 * measured horizontally, and has it destroyed once it leaves; every packet about an entity (movement, look,
 * equipment, metadata, animation, its destruction) goes to the players tracking it and to no one else.
 *
 * flying-squid sends every such packet to each player within 150 blocks, found by a scan of every entity on the
 * server per packet: with n bots walking in view of each other that is n² packets per tick to parse, sent after n²
 * distance checks. Here who tracks whom is kept per entity, worked out again only when an entity has moved a block
 * (looking up its neighbours in a grid of chunk columns, not the whole server), so a packet costs a lookup.
 *
 * A player tracks nothing until it has spawned (flying-squid used to send a joining player to one still logging in,
 * which lost it while the server counted it as shown); at its spawn it is sent everything in range.
 */
export function entityTrackingPlugin(options: EntityTrackingOptions): SquidPlugin {
  let tracker: Tracker;
  return {
    server(serv: SquidServer) {
      tracker = new Tracker(serv, options);
      serv.on('newEntity', (entity: Entity) => tracker.adopt(entity));
      const squid = serv as unknown as { destroyEntity: (entity: Entity) => void };
      const destroy = squid.destroyEntity;
      squid.destroyEntity = (entity) => {
        destroy(entity);
        tracker.forget(entity);
      };
    },
    player(player) {
      const viewer = player as unknown as Player;
      player.once('spawned', () => tracker.startViewing(viewer));
      player.once('disconnected', () => tracker.forget(viewer));
    },
  };
}

class Tracker {
  private readonly grid = new EntityGrid<Entity>(GRID_SLACK);
  /** The players each entity is spawned on. */
  private readonly watchers = new Map<Entity, Set<Player>>();
  /** The entities each spawned player has been sent, and has not been told are gone. */
  private readonly shown = new Map<Player, Set<Entity>>();
  private readonly refreshedAt = new Map<Entity, Vec3>();
  private readonly typeNames: Record<number, { name: string; type: string } | undefined>;

  private readonly entities: Record<number, Entity | undefined>;

  constructor(
    private readonly serv: SquidServer,
    private readonly options: EntityTrackingOptions,
  ) {
    this.typeNames = serv.registry.entities;
    this.entities = (serv as unknown as { entities: Record<number, Entity | undefined> }).entities;
  }

  /** Takes over who is sent `entity`'s packets: a new entity, before flying-squid first spawns it anywhere. */
  adopt(entity: Entity): void {
    this.watchers.set(entity, new Set());
    entity.updateAndSpawn = () => this.refresh(entity);
    entity.getNearbyPlayers = () => [...(this.watchers.get(entity) ?? [])];
    entity.nearbyPlayers = () => [...(this.watchers.get(entity) ?? [])];
    // flying-squid drops a mob killed by damage from its entities without destroying it (the mobs plugin tells the
    // clients): gone from the server, it is forgotten here too.
    const takeDamage = entity.takeDamage;
    if (takeDamage)
      entity.takeDamage = (damage) => {
        takeDamage(damage);
        if (this.entities[entity.id] !== entity) this.forget(entity);
      };
    entity.on('move_done', () => {
      const at = this.refreshedAt.get(entity);
      if (!at || at.distanceTo(entity.position) > REFRESH_DISTANCE) this.refresh(entity);
    });
  }

  startViewing(player: Player): void {
    if (!this.watchers.has(player)) return;
    this.shown.set(player, new Set());
    this.refresh(player);
  }

  /** Drops an entity gone from the server (destroyed, disconnected); who saw it was sent its destruction. */
  forget(entity: Entity): void {
    for (const player of this.watchers.get(entity) ?? []) this.shown.get(player)?.delete(entity);
    for (const other of this.shown.get(entity as Player) ?? []) this.watchers.get(other)?.delete(entity as Player);
    this.watchers.delete(entity);
    this.shown.delete(entity as Player);
    this.refreshedAt.delete(entity);
    this.grid.remove(entity);
  }

  /** Works out again who is sent `entity`, and, for a spawned player, what it is sent; spawns and destroys the rest. */
  private refresh(entity: Entity): void {
    if (!this.watchers.has(entity)) return;
    entity.lastPositionPlayersUpdated = entity.position.clone();
    this.refreshedAt.set(entity, entity.position.clone());
    this.grid.place(entity);
    const newWatchers: Player[] = [];
    this.sync(this.watchers.get(entity)!, this.playersInRange(entity), (player, show) =>
      show ? newWatchers.push(player) : this.pair(player, entity, false),
    );
    this.spawnOnMany(newWatchers, entity);
    const seen = this.shown.get(entity as Player);
    if (seen)
      this.sync(seen, this.entitiesInRange(entity as Player), (other, show) =>
        this.pair(entity as Player, other, show),
      );
  }

  private sync<T>(current: Set<T>, wanted: Set<T>, pair: (item: T, show: boolean) => void): void {
    for (const item of [...current]) if (!wanted.has(item)) pair(item, false);
    for (const item of wanted) if (!current.has(item)) pair(item, true);
  }

  private pair(player: Player, entity: Entity, show: boolean): void {
    if (show) {
      // Spawned before it joins the watchers: what is sent to them meanwhile (movement held back until now) is
      // already in the spawn packet's position.
      player.spawnEntity(entity);
      this.paired(player, entity);
    } else {
      this.watchers.get(entity)!.delete(player);
      this.shown.get(player)!.delete(entity);
      player.despawnEntities([entity]);
    }
  }

  private paired(player: Player, entity: Entity): void {
    this.watchers.get(entity)!.add(player);
    this.shown.get(player)!.add(entity);
  }

  /**
   * Spawns `entity` on `players`: on the first through its spawnEntity, and on the others by handing each packet that
   * spawn wrote to the fan-out once. What a spawn writes depends on the entity alone (flying-squid's spawn packet and
   * equipment, the metadata of drops and mobs added by their plugins), so each player gets the same packets in the same
   * order; flying-squid serialized them anew for each player, and in the dense grid of 300 a bot stepping into the
   * range of dozens of others cost a serialization each (17 % of the world server's plan phase).
   */
  private spawnOnMany(players: readonly Player[], entity: Entity): void {
    const [first, ...rest] = players;
    if (!first) return;
    const written = writesOf(first, () => this.pair(first, entity, true));
    for (const [name, params] of written) this.serv._writeArray(name, params, rest as unknown as SquidPlayer[]);
    for (const player of rest) this.paired(player, entity);
  }

  private playersInRange(entity: Entity): Set<Player> {
    const found = new Set<Player>();
    for (const other of this.grid.near(entity.world, entity.position, this.rangeOf(entity))) {
      const player = other as Player;
      if (this.shown.has(player) && this.inRange(player, entity)) found.add(player);
    }
    return found;
  }

  private entitiesInRange(player: Player): Set<Entity> {
    const found = new Set<Entity>();
    for (const other of this.grid.near(player.world, player.position, this.viewOf(player)))
      if (this.inRange(player, other)) found.add(other);
    return found;
  }

  /** Vanilla's test: a type's range capped by the player's view, horizontally, in the same world. */
  private inRange(player: Player, entity: Entity): boolean {
    if (player === entity || player.world !== entity.world) return false;
    const range = Math.min(this.rangeOf(entity), this.viewOf(player));
    const dx = player.position.x - entity.position.x;
    const dz = player.position.z - entity.position.z;
    return dx * dx + dz * dz <= range * range;
  }

  /** How far a player sees (blocks): the view distance its client asked for, within the server's. */
  private viewOf(player: Player): number {
    const chunks = Math.max(MIN_VIEW_DISTANCE, Math.min(player.view ?? Infinity, this.options.viewDistance));
    return chunks * BLOCKS_PER_CHUNK;
  }

  /** An entity type's range (blocks), capped by the server's view distance and the configured cap. */
  private rangeOf(entity: Entity): number {
    const known = entity.entityType == null ? undefined : this.typeNames[entity.entityType];
    const kind = entity.type === 'player' ? 'player' : (known?.name ?? '');
    const chunks = TRACKING_CHUNKS[kind] ?? TRACKING_CHUNKS[known?.type ?? 'other'] ?? TRACKING_CHUNKS.other!;
    return Math.min(
      chunks * BLOCKS_PER_CHUNK,
      this.options.viewDistance * BLOCKS_PER_CHUNK,
      this.options.maxRange ?? Infinity,
    );
  }
}

/** The packets `action` writes to `player`'s client, written as usual. */
function writesOf(player: Player, action: () => void): [string, object][] {
  const client = player._client;
  const own = Object.hasOwn(client, 'write');
  const write = client.write;
  const written: [string, object][] = [];
  client.write = (name, params) => {
    written.push([name, params]);
    write.call(client, name, params);
  };
  try {
    action();
  } finally {
    if (own) client.write = write;
    else delete (client as Partial<typeof client>).write;
  }
  return written;
}
