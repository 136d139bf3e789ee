import { Vec3 } from 'vec3';
import type { EntityInfo, LivingEntity, ObservationQuery, Vec3Like } from '../../../contracts/world.js';
import { attackDamage, entitiesMatching } from '../../actuator-rules.js';
import { mobKind } from '../../mobs.js';
import { isDriven, knockedBackTo, maxHealth, type MobTerrain } from '../../mob-rules/index.js';
import { heldItemOf, meleeTracker } from './melee.js';
import { type LivingSquidEntity, mobLife } from './mob-life.js';
import { mobLootDropper } from './mob-loot.js';
import type { Scenario } from '../../scenario/index.js';
import type { SavedMob } from '../save-file.js';
import { spawnWithId, type EntityServer } from '../saved-entities.js';
import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid-types.js';

interface SquidEntity extends LivingSquidEntity {
  type: string;
  uuid: string;
  username?: string;
  yaw: number;
  pitch: number;
  gravity: Vec3;
  size?: Vec3;
  bornTime: number;
}

interface SpawnOptions {
  yaw?: number;
  pitch?: number;
  /** False: it stands where it is put (a scenario's `ai: false`). */
  ai: boolean;
  health?: number;
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
 * A scenario's mobs, which flying-squid can spawn but never lays out, living by the game's rules (mob-life.ts), and
 * their death as a client sees it: flying-squid drops a mob killed by a player from its own list but never tells
 * anyone it is gone, so mineflayer keeps the corpse; each tick a mob gone from the server is destroyed on every
 * client. flying-squid's own physics are left out (it keeps a mob bobbing a block above the ground, throws a hit mob
 * five times its distance from the attacker sliding on for twenty blocks, and would put back a mob the rules moved
 * while its step was being computed): a player's hit deals and pushes what the melee rules say (melee.ts; a hit the
 * mob's immunity absorbs is cancelled), the push straight back as far as the mob has room (as SimWorld does), and the
 * rules walk it.
 */
export function mobsPlugin(scenario: Scenario, options: { layOut: boolean }): SquidPlugin & { store: LivingStore } {
  let serv: SquidServer &
    EntityServer & {
      entities: Record<number, SquidEntity>;
      spawnMob(type: number, world: unknown, position: Vec3, options?: { yaw?: number; pitch?: number }): SquidEntity;
    };
  /** Every mob this plugin stood in the world (to tell clients when one is gone), and whether the rules drive it. */
  const mobs = new Map<number, { ai: boolean }>();
  const driven = new Set<number>();
  let life: ReturnType<typeof mobLife> | null = null;
  let loot: ReturnType<typeof mobLootDropper> | null = null;
  const melee = meleeTracker();

  /** A mob flying-squid can name, without flying-squid's physics (see above). */
  function spawn(name: string, position: Vec3, how: SpawnOptions): SquidEntity {
    const type = serv.registry.entitiesByName[name]!.id;
    // flying-squid names a spawned mob from `registry.mobs`, which minecraft-data 1.21 fills with only a
    // few entities (it types the rest "hostile" or "animal"): every mob a scenario may name is added.
    const known = serv.registry as unknown as {
      mobs: Record<number, unknown>;
      entities: Record<number, unknown>;
    };
    known.mobs[type] ??= known.entities[type];
    const spawned = serv.spawnMob(type, serv.overworld, position, { yaw: how.yaw ?? 0, pitch: how.pitch ?? 0 });
    spawned.gravity = new Vec3(0, 0, 0);
    // flying-squid's physics tick skips an entity without a size.
    delete spawned.size;
    spawned.health = how.health ?? maxHealth(name);
    mobs.set(spawned.id, { ai: how.ai });
    if (how.ai && isDriven(name)) driven.add(spawned.id);
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
      for (const [id, { ai }] of mobs) {
        const mob = serv.entities[id];
        if (!mob || mob.world !== serv.overworld) continue;
        const { x, y, z } = mob.position;
        const { uuid, yaw = 0, pitch = 0, health } = mob;
        saved.push({ id, uuid, name: mob.name ?? 'unknown', position: { x, y, z }, yaw, pitch, health });
        if (!ai) saved.at(-1)!.still = true;
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
          spawn(mob.name, new Vec3(x, y, z), { yaw: mob.yaw, pitch: mob.pitch, ai: mob.still !== true }),
        );
        restored.uuid = mob.uuid;
        restored.health = mob.health;
      }
    },
  };

  return {
    store,
    player(player: SquidPlayer) {
      melee.player(player);
      // flying-squid deals 1 whatever the hand holds and flings the mob; the game deals what the melee rules say.
      type Hit = { attackedEntity: SquidEntity; velocity: Vec3; damage?: number };
      player.on('attack_cancel', (hit: Hit, cancel: () => void) => {
        const mob = hit.attackedEntity;
        // A player hit by a player takes the weapon's full damage (player combat is not the melee rules' subject).
        if (mob.type === 'player') return void (hit.damage = attackDamage(heldItemOf(player)));
        const dealt = melee.hit(player, { id: mob.id, name: mob.name ?? 'unknown' });
        if (dealt.damage === 0) return cancel();
        hit.velocity = new Vec3(0, 0, 0);
        hit.damage = dealt.damage;
        if (mob.health - dealt.damage <= 0) {
          // flying-squid takes the mob away after this hook; its loot falls where it stood.
          loot?.died(mob, true);
          return melee.forget(mob.id);
        }
        if (!mobs.has(mob.id) || !life) return;
        if (dealt.knockback > 0)
          knockBack(life.terrain, player, mob, dealt.knockback).catch((error: unknown) =>
            serv.err(`knockback of mob ${mob.id} failed: ${String(error)}`),
          );
        life.hitBy(mob.id, player);
      });
    },
    server(server: SquidServer) {
      serv = server as typeof serv;
      const seed = scenario.terrain.kind === 'survival' ? scenario.terrain.seed : 0;
      const dropper = mobLootDropper(serv, seed);
      loot = dropper;
      life = mobLife(serv, {
        driven,
        spawning: scenario.spawnAtNight ?? null,
        seed,
        spawn: (name, position) => spawn(name, position, { ai: true }),
        died: (mob) => dropper.died(mob, false),
      });
      if (options.layOut)
        for (const mob of scenario.mobs) {
          const at = new Vec3(mob.x + 0.5, mob.y, mob.z + 0.5);
          spawn(mob.name, at, { ai: mob.ai !== false, ...(mob.health === undefined ? {} : { health: mob.health }) });
        }
      serv.on('tick', () => {
        melee.tick(serv.players);
        for (const id of mobs.keys()) {
          if (serv.entities[id]) continue;
          mobs.delete(id);
          driven.delete(id);
          serv._writeArray('entity_destroy', { entityIds: [id] }, serv.players);
        }
      });
    },
  };
}

/** A hit's push: `distance` blocks straight away from the attacker, as far as the mob has room to stand. */
function knockBack(terrain: MobTerrain, player: SquidPlayer, mob: SquidEntity, distance: number): Promise<void> {
  const to = knockedBackTo(terrain, player.position, mob.position, distance);
  return mob.sendPosition(new Vec3(to.x, to.y, to.z), true);
}
