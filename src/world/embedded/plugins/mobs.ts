import { Vec3 } from 'vec3';
import type { EntityInfo, LivingEntity, ObservationQuery, Vec3Like } from '../../../contracts/world.js';
import { entitiesMatching, knockedBackTo } from '../../actuator-rules.js';
import { mobKind } from '../../mobs.js';
import type { Scenario } from '../../scenario/index.js';
import type { SavedMob } from '../save-file.js';
import { spawnWithId, type EntityServer } from '../saved-entities.js';
import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid-types.js';

interface SquidEntity {
  id: number;
  type: string;
  uuid: string;
  name?: string;
  username?: string;
  health: number;
  position: Vec3;
  yaw: number;
  pitch: number;
  gravity: Vec3;
  bornTime: number;
  world: unknown;
  sendPosition(position: Vec3, onGround: boolean): Promise<void>;
}

/** What the embedded server's mobs and players are, for the world's server truth. */
export interface LivingStore {
  living(query: NonNullable<ObservationQuery['entities']>, at: Vec3Like): LivingEntity[];
  /** The scenario's mobs still alive, for a save. */
  capture(): SavedMob[];
  /** Stands saved mobs where they stood, under their ids, before anyone joins a reopened world. */
  restore(mobs: readonly SavedMob[]): void;
}

/**
 * A scenario's mobs, which flying-squid can spawn but never lays out, and their death as a client sees
 * it: flying-squid drops a mob killed by a player from its own list but never tells anyone it is gone,
 * so mineflayer keeps the corpse; each tick a mob gone from the server is destroyed on every client.
 * Its physics are left out: flying-squid's keeps a mob bobbing a block above the ground and throws a hit
 * mob five times its distance from the attacker, sliding on for twenty blocks. A scenario's mobs stand
 * where they are put, and a hit pushes one a block straight back where it has room (as SimWorld does).
 */
export function mobsPlugin(scenario: Scenario, options: { layOut: boolean }): SquidPlugin & { store: LivingStore } {
  let serv: SquidServer &
    EntityServer & {
      entities: Record<number, SquidEntity>;
      spawnMob(type: number, world: unknown, position: Vec3, options?: { yaw?: number; pitch?: number }): SquidEntity;
    };
  const mobs = new Set<number>();

  /** A scenario mob flying-squid can name, standing still (flying-squid's own physics are left out, see above). */
  function spawn(name: string, position: Vec3, options: { yaw?: number; pitch?: number } = {}): SquidEntity {
    const type = serv.registry.entitiesByName[name]!.id;
    // flying-squid names a spawned mob from `registry.mobs`, which minecraft-data 1.21 fills with only a
    // few entities (it types the rest "hostile" or "animal"): every mob a scenario may name is added.
    const known = serv.registry as unknown as {
      mobs: Record<number, unknown>;
      entities: Record<number, unknown>;
    };
    known.mobs[type] ??= known.entities[type];
    const spawned = serv.spawnMob(type, serv.overworld, position, options);
    spawned.gravity = new Vec3(0, 0, 0);
    mobs.add(spawned.id);
    return spawned;
  }

  const store: LivingStore = {
    living(query, at) {
      const entities: (EntityInfo & { health: number })[] = [];
      for (const entity of Object.values(serv.entities)) {
        const name = entity.type === 'player' ? 'player' : (entity.name ?? 'unknown');
        const kind = entity.type === 'player' ? 'player' : mobKind(name);
        if (!kind) continue;
        const { x, y, z } = entity.position;
        entities.push({ id: entity.id, name, kind, position: { x, y, z }, health: entity.health });
      }
      return entitiesMatching(entities, query, at).map(({ id, name, position, health }) => ({
        id,
        name,
        position,
        health,
      }));
    },
    capture() {
      const saved: SavedMob[] = [];
      for (const id of mobs) {
        const mob = serv.entities[id];
        if (!mob || mob.world !== serv.overworld) continue;
        const { x, y, z } = mob.position;
        const { uuid, yaw = 0, pitch = 0, health } = mob;
        saved.push({ id, uuid, name: mob.name ?? 'unknown', position: { x, y, z }, yaw, pitch, health });
      }
      return saved;
    },
    restore(saved) {
      for (const mob of saved) {
        if (!serv.registry.entitiesByName[mob.name]) {
          serv.warn(`a saved ${mob.name} is not an entity in this version; left out`);
          continue;
        }
        const { x, y, z } = mob.position;
        const restored = spawnWithId(serv, mob.id, () =>
          spawn(mob.name, new Vec3(x, y, z), { yaw: mob.yaw, pitch: mob.pitch }),
        );
        restored.uuid = mob.uuid;
        restored.health = mob.health;
      }
    },
  };

  return {
    store,
    player(player: SquidPlayer) {
      const knockBack = async (mob: SquidEntity) => {
        const to = knockedBackTo(player.position, mob.position);
        const cell = new Vec3(Math.floor(to.x), Math.floor(to.y), Math.floor(to.z));
        const solid = async (at: Vec3) =>
          serv.registry.blocks[await serv.overworld.getBlockType(at)]?.boundingBox === 'block';
        if ((await solid(cell)) || (await solid(cell.offset(0, 1, 0))) || !(await solid(cell.offset(0, -1, 0)))) return;
        await mob.sendPosition(new Vec3(to.x, to.y, to.z), true);
      };
      player.on('attack', (hit: { attackedEntity: SquidEntity; velocity: Vec3 }) => {
        const mob = hit.attackedEntity;
        hit.velocity = new Vec3(0, 0, 0);
        if (!mobs.has(mob.id)) return;
        knockBack(mob).catch((error: unknown) => serv.err(`knockback of mob ${mob.id} failed: ${String(error)}`));
      });
    },
    server(server: SquidServer) {
      serv = server as typeof serv;
      if (options.layOut) for (const mob of scenario.mobs) spawn(mob.name, new Vec3(mob.x + 0.5, mob.y, mob.z + 0.5));
      serv.on('tick', () => {
        for (const id of mobs) {
          if (serv.entities[id]) continue;
          mobs.delete(id);
          serv._writeArray('entity_destroy', { entityIds: [id] }, serv.players);
        }
      });
    },
  };
}
