import type { Vec3Like } from '../../contracts/world.js';
import type { Random } from '../../random.js';
import { mobKind } from '../mobs.js';
import { type Mob, type MobMind, type MobPlayer, newMind, provoke, tickMob } from './brain.js';
import { armourOf, damageAfterArmour } from './armour.js';
import { damageToMob } from './combat.js';
import { type BlastedBlocks, blastBlocks, blastDamage, exposure } from './explosion.js';
import { HurtImmunity } from './hurt.js';
import { Despawner, type NightSpawning, nightSpawn } from './spawning.js';
import { mobSize, SPAWN_INTERVAL_TICKS } from './stats.js';
import type { MobTerrain } from './terrain.js';

const distanceBetween = (a: Vec3Like, b: Vec3Like) => Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);

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
  hurtPlayer(player: number, damage: number, by: Mob, cause: 'melee' | 'arrow' | 'explosion'): void;
  /** A creeper's fuse was lit or started going out (the server shows it swelling). */
  swelling(mob: Mob, lit: boolean): void;
  /** A mob took a target or lost it (the server shows its "aggressive" flag). */
  aggressive(mob: Mob, on: boolean): void;
  /** A creeper blew up: it is gone, and so are the blocks its blast broke (the `dropped` ones drop their items). */
  explode(mob: Mob, blocks: BlastedBlocks): void;
  /** Takes health off a mob (its sunburn); at 0 the world removes it. */
  hurtMob(mob: Mob, damage: number): void;
  /** Spawns a hostile mob the rules will drive. */
  spawn(name: string, position: Vec3Like): void;
  /** Takes a mob out of the world without a death (night spawning's despawn). */
  despawn(mob: Mob): void;
}

/**
 * The mob rules for one world, ticked by it: what each mob remembers, the players' hurt immunity, night spawning.
 * SimWorld ticks it on its clock every 50 ms, the embedded server on flying-squid's tick; the same decisions come
 * from the same state and the world's seeded random.
 */
export class MobDirector {
  private readonly minds = new Map<number, MobMind>();
  private readonly immunity = new HurtImmunity();
  private readonly despawner = new Despawner();

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
      // Where the night spawns hostiles, the game takes them away again; a world without it keeps what it was given.
      if (
        this.spawning &&
        mobKind(mob.name) === 'hostile' &&
        this.despawner.despawns(mob, world.players, this.random)
      ) {
        host.despawn(mob);
        continue;
      }
      alive.add(mob.id);
      const before = { ...mob.position };
      let mind = this.minds.get(mob.id);
      if (!mind) this.minds.set(mob.id, (mind = newMind(mob.position)));
      const events = tickMob(mob, mind, world);
      if (before.x !== mob.position.x || before.y !== mob.position.y || before.z !== mob.position.z)
        host.move(mob, mob.position);
      for (const event of events) {
        if (event.kind === 'burn') host.hurtMob(mob, event.damage);
        else if (event.kind === 'swell') host.swelling(mob, event.lit);
        else if (event.kind === 'aggressive') host.aggressive(mob, event.on);
        else if (event.kind === 'explode') this.explode(host, world.players, mob, event.power, tick);
        else this.hurt(host, event.player, event.damage, mob, event.cause, tick);
      }
    }
    for (const id of this.minds.keys()) if (!alive.has(id)) this.minds.delete(id);
    this.despawner.keepOnly(alive);
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

  /** Immunity weighs a hit as dealt, armour then cuts what gets through (LivingEntity.hurt, then actuallyHurt). */
  private hurt(
    host: MobHost,
    player: number,
    dealt: number,
    by: Mob,
    cause: 'melee' | 'arrow' | 'explosion',
    tick: number,
  ): void {
    const damage = this.immunity.hurt(player, dealt, tick);
    const taken = damageAfterArmour(damage, armourOf(host.wornBy(player)));
    if (taken > 0) host.hurtPlayer(player, taken, by, cause);
  }

  /**
   * A creeper's blast: the players and the other mobs it reaches are hurt by what the terrain let through (mobs
   * through their armour), then the blocks break.
   */
  private explode(host: MobHost, players: readonly MobPlayer[], mob: Mob, power: number, tick: number): void {
    const centre = mob.position;
    const blocks = blastBlocks(host.terrain, centre, power, this.random);
    for (const player of players) {
      if (!player.targetable) continue;
      const dealt = blastDamage(
        power,
        distanceBetween(player.position, centre),
        exposure(host.terrain, centre, player.position),
      );
      if (dealt > 0) this.hurt(host, player.id, dealt, mob, 'explosion', tick);
    }
    for (const other of host.mobs()) {
      if (other.id === mob.id) continue;
      const seen = exposure(host.terrain, centre, other.position, mobSize(other.name));
      const dealt = blastDamage(power, distanceBetween(other.position, centre), seen);
      if (dealt > 0) host.hurtMob(other, damageToMob(other.name, dealt));
    }
    host.explode(mob, blocks);
  }

  /** How far a creeper's fuse has burnt, in ticks, once the rules have driven it (undefined before). */
  fuseOf(mob: number): number | undefined {
    return this.minds.get(mob)?.swell;
  }

  /**
   * A mob copied mid-act from another world (a fork of what a bot saw): after `target` if it was, and a creeper's fuse
   * lit or going out and burnt as far as that world showed, so it blows up when it would have there.
   */
  resume(mob: Mob, state: { target: number | null; swelling?: boolean; fuseTicks?: number }): void {
    const mind = newMind(mob.position);
    mind.target = state.target;
    mind.shownAggressive = state.target !== null;
    mind.swellDir = state.swelling === true ? 1 : -1;
    mind.swell = state.fuseTicks ?? 0;
    this.minds.set(mob.id, mind);
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
