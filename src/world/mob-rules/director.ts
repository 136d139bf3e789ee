import type { Vec3Like } from '../../contracts/world.js';
import type { Random } from '../../random.js';
import { mobKind } from '../mobs.js';
import { type Mob, type MobMind, type MobPlayer, newMind, provoke, tickMob } from './brain.js';
import { armourOf, damageAfterArmour } from './armour.js';
import { HurtImmunity } from './hurt.js';
import { type NightSpawning, nightSpawn } from './spawning.js';
import { SPAWN_INTERVAL_TICKS } from './stats.js';
import type { MobTerrain } from './terrain.js';

/** A world as the mob rules drive it: SimWorld and the embedded server each adapt theirs to this. */
export interface MobHost {
  readonly terrain: MobTerrain;
  timeOfDay(): number;
  players(): readonly MobPlayer[];
  /** The mobs the rules move, alive now, each a fresh copy whose position the rules may change. */
  mobs(): readonly Mob[];
  /** Every hostile mob's position, driven or not, for night spawning's count. */
  hostilePositions(): readonly Vec3Like[];
  /** Stands the mob at a new position. */
  move(mob: Mob, to: Vec3Like): void;
  /** The armour names a player wears (its four armour slots' items). */
  wornBy(player: number): readonly string[];
  /** Takes health off a player (already net of its hurt immunity and armour). */
  hurtPlayer(player: number, damage: number, by: Mob, cause: 'melee' | 'arrow'): void;
  /** Takes health off a mob (its sunburn); at 0 the world removes it. */
  hurtMob(mob: Mob, damage: number): void;
  /** Spawns a hostile mob the rules will drive. */
  spawn(name: string, position: Vec3Like): void;
}

/**
 * The mob rules for one world, ticked by it: what each mob remembers, the players' hurt immunity, night spawning.
 * SimWorld ticks it on its clock every 50 ms, the embedded server on flying-squid's tick; the same decisions come
 * from the same state and the world's seeded random.
 */
export class MobDirector {
  private readonly minds = new Map<number, MobMind>();
  private readonly immunity = new HurtImmunity();

  constructor(
    private readonly random: Random,
    private readonly spawning: NightSpawning | null,
  ) {}

  /** Whether there is anything to tick: a mob to drive or spawning to do. */
  active(host: MobHost): boolean {
    return this.spawning !== null || host.mobs().length > 0;
  }

  tick(host: MobHost, tick: number): void {
    const world = {
      terrain: host.terrain,
      tick,
      timeOfDay: host.timeOfDay(),
      players: host.players(),
      random: this.random,
    };
    const alive = new Set<number>();
    for (const mob of host.mobs()) {
      alive.add(mob.id);
      const before = { ...mob.position };
      let mind = this.minds.get(mob.id);
      if (!mind) this.minds.set(mob.id, (mind = newMind(mob.position)));
      const events = tickMob(mob, mind, world);
      if (before.x !== mob.position.x || before.y !== mob.position.y || before.z !== mob.position.z)
        host.move(mob, mob.position);
      for (const event of events) {
        if (event.kind === 'burn') host.hurtMob(mob, event.damage);
        else {
          // Immunity weighs the hit as dealt, armour then cuts what gets through (LivingEntity.hurt, then actuallyHurt).
          const damage = this.immunity.hurt(event.player, event.damage, tick);
          const taken = damageAfterArmour(damage, armourOf(host.wornBy(event.player)));
          if (taken > 0) host.hurtPlayer(event.player, taken, mob, event.cause);
        }
      }
    }
    for (const id of this.minds.keys()) if (!alive.has(id)) this.minds.delete(id);
    if (this.spawning && tick % SPAWN_INTERVAL_TICKS === 0) {
      const spawned = nightSpawn(
        host.terrain,
        this.spawning,
        world.timeOfDay,
        world.players,
        host.hostilePositions(),
        this.random,
      );
      if (spawned && mobKind(spawned.name) === 'hostile') host.spawn(spawned.name, spawned.position);
    }
  }

  /** A player hit this mob: a hostile one turns on it, and any re-plans its walk from where the hit left it. */
  hitBy(mob: Mob, player: number): void {
    let mind = this.minds.get(mob.id);
    if (!mind) this.minds.set(mob.id, (mind = newMind(mob.position)));
    provoke(mob, mind, player);
  }

  /** A player died or left: its immunity goes with it. */
  forgetPlayer(player: number): void {
    this.immunity.forget(player);
  }
}
