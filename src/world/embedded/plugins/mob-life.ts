import { Vec3 } from 'vec3';
import { deriveSeed, mulberry32 } from '../../../random.js';
import {
  type BlastedBlocks,
  blastDrops,
  type Mob,
  MobDirector,
  type MobHost,
  type MobTerrain,
  type NightSpawning,
} from '../../mob-rules/index.js';
import { mobKind } from '../../mobs.js';
import type { SquidPlayer, SquidServer } from '../squid-types.js';
import { spawnDrop } from './mob-loot.js';

/** The armour slots of a player's inventory window: head, chest, legs, feet. */
const ARMOUR_SLOTS = { first: 5, last: 8 };

/** A creeper's swell direction in its entity metadata (minecraft-data's metadataKeys: `swell_dir`, an int). */
const SWELL_DIR_INDEX = 16;
/** A mob's flags (`mob_flags`, a byte): bit 4 says it is after a target ("aggressive"). */
const MOB_FLAGS_INDEX = 15;
const AGGRESSIVE_FLAG = 4;
const DAMAGE_TYPES = { melee: 'minecraft:mob_attack', arrow: 'minecraft:arrow', explosion: 'minecraft:explosion' };

/** A flying-squid mob as the rules move it. */
export interface LivingSquidEntity {
  id: number;
  name?: string;
  health: number;
  position: Vec3;
  world: unknown;
  sendPosition(position: Vec3, onGround: boolean): Promise<void>;
  takeDamage(hit: { damage: number; velocity: Vec3; sound?: string }): void;
}

export interface MobLifeOptions {
  /** The mobs the rules drive (a scenario's, unless `ai: false`; every night spawn). */
  driven: ReadonlySet<number>;
  spawning: NightSpawning | null;
  seed: number;
  /** Spawns a hostile mob that the rules will drive. */
  spawn(name: string, position: Vec3): void;
  /** A mob the rules hurt (a burn in daylight) died of it: its loot drops. */
  died(mob: LivingSquidEntity): void;
}

/**
 * The embedded server's mobs living by the shared rules (src/world/mob-rules/), ticked on flying-squid's tick as
 * SimWorld ticks them on its clock: they move by flying-squid's entity position packets (so every client in range
 * sees them walk), hurt players through the health a client is sent (update_health, and a damage_event so it sees
 * the hit), burn through flying-squid's own takeDamage (a mob at 0 is gone, and the mobs plugin tells the clients).
 * Their decisions come from a generator seeded per world.
 */
export function mobLife(serv: SquidServer & { entities: Record<number, LivingSquidEntity> }, options: MobLifeOptions) {
  const director = new MobDirector(mulberry32(deriveSeed(options.seed, 'mobs')), options.spawning);
  const terrain = serverTerrain(serv);
  const damageType = damageTypes(serv);
  const living = (id: number) => {
    const entity = serv.entities[id];
    return entity && entity.world === serv.overworld && terrain.loaded(entity.position) ? entity : null;
  };
  const shown = shownMetadata(serv);
  const host: MobHost = {
    terrain,
    timeOfDay: () => serv.time,
    players: () =>
      serv.players
        .filter((p) => p.world === serv.overworld)
        .map((p) => ({
          id: p.id,
          position: p.position,
          targetable: p.gameMode === 0 && p.health > 0 && p.disconnected !== true,
        })),
    mobs: () => {
      const mobs: Mob[] = [];
      for (const id of options.driven) {
        const entity = living(id);
        if (!entity) continue;
        const { x, y, z } = entity.position;
        mobs.push({ id, name: entity.name ?? 'unknown', position: { x, y, z } });
      }
      return mobs;
    },
    hostilePositions: () =>
      Object.values(serv.entities)
        .filter((e) => e.world === serv.overworld && mobKind(e.name ?? '') === 'hostile')
        .map((e) => e.position),
    move: (mob, to) => {
      serv.entities[mob.id]
        ?.sendPosition(new Vec3(to.x, to.y, to.z), true)
        .catch((error: unknown) => serv.err(`moving mob ${mob.id} failed: ${String(error)}`));
    },
    wornBy: (id) => {
      const player = serv.players.find((p) => p.id === id);
      if (!player) return [];
      const worn: string[] = [];
      for (let slot = ARMOUR_SLOTS.first; slot <= ARMOUR_SLOTS.last; slot++) {
        const item = player.inventory.slots[slot];
        if (item) worn.push(item.name);
      }
      return worn;
    },
    swelling: (mob, lit) => shown.set(mob.id, { key: SWELL_DIR_INDEX, type: 'int', value: lit ? 1 : -1 }, lit),
    aggressive: (mob, on) =>
      shown.set(mob.id, { key: MOB_FLAGS_INDEX, type: 'byte', value: on ? AGGRESSIVE_FLAG : 0 }, on),
    explode: (mob, blocks) => {
      // Gone at once; the mobs plugin tells every client on its next tick.
      delete serv.entities[mob.id];
      blowUp(serv, terrain, blocks).catch((error: unknown) =>
        serv.err(`the blast of mob ${mob.id} failed to break its blocks: ${String(error)}`),
      );
    },
    hurtPlayer: (id, damage, by, cause) => {
      const player = serv.players.find((p) => p.id === id);
      if (!player || player.health <= 0) return;
      const hurt = {
        entityId: player.id,
        sourceTypeId: damageType(DAMAGE_TYPES[cause]),
        sourceCauseId: by.id + 1,
        sourceDirectId: by.id + 1,
      };
      // Who dealt it first, then the health, as vanilla sends them: a death's client knows its killer.
      player._client.write('damage_event', hurt);
      player._writeOthersNearby('damage_event', hurt);
      player.updateHealth(Math.max(0, player.health - damage));
    },
    hurtMob: (mob, damage) => {
      const entity = serv.entities[mob.id];
      if (!entity) return;
      entity.takeDamage({ damage, velocity: new Vec3(0, 0, 0) });
      if (entity.health <= 0) options.died(entity);
    },
    // Gone at once, as a creeper's blast takes it; the mobs plugin tells every client on its next tick.
    despawn: (mob) => delete serv.entities[mob.id],
    spawn: (name, position) => options.spawn(name, new Vec3(position.x, position.y, position.z)),
  };
  serv.on('tick', (_delta: number, tick: number) => {
    if (director.active(host)) director.tick(host, tick);
  });
  return {
    /** A player hit a driven mob (after its knock-back): a hostile one turns on that player. */
    hitBy(mobId: number, player: SquidPlayer): void {
      const entity = living(mobId);
      if (!entity || !options.driven.has(mobId)) return;
      const { x, y, z } = entity.position;
      director.hitBy({ id: mobId, name: entity.name ?? 'unknown', position: { x, y, z } }, player.id);
    },
    terrain,
  };
}

interface MetadataEntry {
  key: number;
  type: string;
  value: number;
}

/**
 * The metadata the rules change on a mob (its swell, its aggressive flag), sent to every player at each change and,
 * as vanilla sends an entity's metadata with its spawn, to a player the mob is spawned for while any entry is off its
 * default: a player who joins, or comes into range, while a creeper swells sees it swelling. Held by the entity
 * itself, so it goes with the mob.
 */
function shownMetadata(serv: SquidServer & { entities: Record<number, LivingSquidEntity> }) {
  const held = new WeakMap<object, Map<number, MetadataEntry>>();
  serv.on('newPlayer', (player: SquidPlayer) =>
    // spawnEntity is defined by flying-squid's spawn plugin; 'asap' comes after every player hook.
    player.once('asap', () => {
      const spawnEntity = player.spawnEntity as (entity: { id: number }) => void;
      player.spawnEntity = (entity: { id: number }) => {
        spawnEntity(entity);
        const metadata = [...(held.get(entity)?.values() ?? [])];
        if (metadata.length > 0) player._client.write('entity_metadata', { entityId: entity.id, metadata });
      };
    }),
  );
  return {
    /** Sends `entry` to every player; kept for later spawns unless it is back to its default (`offDefault` false). */
    set(id: number, entry: MetadataEntry, offDefault: boolean): void {
      serv._writeArray('entity_metadata', { entityId: id, metadata: [entry] }, serv.players);
      const entity = serv.entities[id];
      if (!entity) return;
      const entries = held.get(entity) ?? new Map<number, MetadataEntry>();
      held.set(entity, entries);
      if (offDefault) entries.set(entry.key, entry);
      else entries.delete(entry.key);
    },
  };
}

/** Breaks a blast's blocks (each block change goes to the clients) and drops the items of the `dropped` ones. */
async function blowUp(serv: SquidServer, terrain: MobTerrain, { broken, dropped }: BlastedBlocks): Promise<void> {
  const names = new Map(broken.map((cell) => [cell, terrain.block(cell.x, cell.y, cell.z)]));
  for (const cell of broken) await serv.setBlock(serv.overworld, new Vec3(cell.x, cell.y, cell.z), 0);
  for (const cell of dropped) for (const drop of blastDrops(names.get(cell) ?? 'air')) spawnDrop(serv, cell, drop, 1);
}

/** The server's blocks read synchronously from its loaded chunk columns; a cell in no loaded column is null. */
function serverTerrain(serv: SquidServer): MobTerrain & { loaded(position: Vec3): boolean } {
  const world = serv.overworld as unknown as {
    sync: { getColumn(chunkX: number, chunkZ: number): { getBlockStateId(at: Vec3): number } | undefined };
  };
  const inChunk = new Vec3(0, 0, 0);
  return {
    block(x, y, z) {
      const column = world.sync.getColumn(x >> 4, z >> 4);
      if (!column) return null;
      inChunk.set(x & 15, y, z & 15);
      return serv.registry.blocksByStateId[column.getBlockStateId(inChunk)]?.name ?? null;
    },
    loaded(position) {
      return world.sync.getColumn(Math.floor(position.x) >> 4, Math.floor(position.z) >> 4) !== undefined;
    },
  };
}

/** A damage type's index in the registry the server sent at login (what a damage_event names). */
function damageTypes(serv: SquidServer): (key: string) => number {
  const codec = (serv.registry as unknown as { loginPacket?: { dimensionCodec?: Record<string, unknown> } }).loginPacket
    ?.dimensionCodec?.['minecraft:damage_type'] as { entries?: { key: string }[] } | undefined;
  const keys = codec?.entries?.map((entry) => entry.key) ?? [];
  return (key) => Math.max(0, keys.indexOf(key));
}
