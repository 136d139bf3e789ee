import minecraftData from 'minecraft-data';
import { isNight, type Vec3Like } from '../../contracts/world.js';
import type { Random } from '../../random.js';
import { MINECRAFT_VERSION } from '../recipes.js';
import type { MobPlayer } from './brain.js';
import {
  DESPAWN_CHANCE_PER_TICK,
  DESPAWN_IDLE_TICKS,
  DESPAWN_NEAR,
  DESPAWN_NOW_BEYOND,
  SPAWN_MIN_DISTANCE,
} from './stats.js';
import { canStand, type MobTerrain } from './terrain.js';

const data = minecraftData(MINECRAFT_VERSION);

/** A scenario's night spawning: these kinds, up to `maxNearby` hostile mobs within `radius` of each player. */
export interface NightSpawning {
  kinds: readonly string[];
  maxNearby: number;
  radius: number;
}

/** Columns tried per player per attempt, and how far up and down each is searched for ground. */
const TRIES = 8;
const SEARCH_HEIGHT = 8;

/**
 * Where one hostile mob spawns this attempt, or null: only at night, for a player with fewer than `maxNearby` hostile
 * mobs within `radius`, on a random column between SPAWN_MIN_DISTANCE and `radius` from it, on ground a mob can stand
 * on that is no leaf or glass (vanilla spawns on opaque blocks only) and never within SPAWN_MIN_DISTANCE of any player.
 * Block light (torches) is not modelled: every cell is dark at night.
 */
export function nightSpawn(
  terrain: MobTerrain,
  rules: NightSpawning,
  timeOfDay: number,
  players: readonly MobPlayer[],
  hostiles: readonly Vec3Like[],
  random: Random,
): { name: string; position: Vec3Like } | null {
  if (!isNight(timeOfDay)) return null;
  const near = (a: Vec3Like, b: Vec3Like, r: number) => Math.hypot(a.x - b.x, a.z - b.z) <= r;
  for (const player of players) {
    if (!player.targetable) continue;
    if (hostiles.filter((h) => near(h, player.position, rules.radius)).length >= rules.maxNearby) continue;
    for (let attempt = 0; attempt < TRIES; attempt++) {
      const angle = random() * 2 * Math.PI;
      const reach = SPAWN_MIN_DISTANCE + 1 + random() * (rules.radius - SPAWN_MIN_DISTANCE - 1);
      const x = Math.floor(player.position.x + Math.cos(angle) * reach);
      const z = Math.floor(player.position.z + Math.sin(angle) * reach);
      const y = groundNear(terrain, x, Math.floor(player.position.y), z);
      if (y === null) continue;
      const position = { x: x + 0.5, y, z: z + 0.5 };
      if (players.some((p) => near(p.position, position, SPAWN_MIN_DISTANCE))) continue;
      const name = rules.kinds[Math.floor(random() * rules.kinds.length)]!;
      return { name, position };
    }
  }
  return null;
}

function groundNear(terrain: MobTerrain, x: number, around: number, z: number): number | null {
  for (let y = around + SEARCH_HEIGHT; y >= around - SEARCH_HEIGHT; y--) {
    if (!canStand(terrain, x, y, z)) continue;
    const floor = terrain.block(x, y - 1, z);
    if (floor !== null && data.blocksByName[floor]?.transparent === false) return y;
  }
  return null;
}

/**
 * Which hostile mobs despawn, as the game takes them away where night spawning runs (Mob.checkDespawn): at once
 * beyond DESPAWN_NOW_BEYOND blocks of every player; beyond DESPAWN_NEAR, after DESPAWN_IDLE_TICKS out there, with a
 * chance of DESPAWN_CHANCE_PER_TICK a tick. Without it a player who walks on leaves every mob behind it alive, and the
 * spawning, which counts only those near, fills the night with more than the game's cap.
 */
export class Despawner {
  /** Ticks each mob has spent beyond DESPAWN_NEAR of every player (the game's noActionTime, reset near one). */
  private readonly farTicks = new Map<number, number>();

  despawns(mob: { id: number; position: Vec3Like }, players: readonly MobPlayer[], random: Random): boolean {
    // No player in the world: nothing near runs the game's despawn check either.
    if (players.length === 0) return false;
    const nearest = Math.min(...players.map((p) => distance(p.position, mob.position)));
    if (nearest > DESPAWN_NOW_BEYOND) return this.forget(mob.id);
    if (nearest <= DESPAWN_NEAR) {
      this.farTicks.delete(mob.id);
      return false;
    }
    const ticks = (this.farTicks.get(mob.id) ?? 0) + 1;
    this.farTicks.set(mob.id, ticks);
    return ticks > DESPAWN_IDLE_TICKS && random() < DESPAWN_CHANCE_PER_TICK ? this.forget(mob.id) : false;
  }

  /** Drops what is remembered of mobs no longer alive. */
  keepOnly(alive: ReadonlySet<number>): void {
    for (const id of this.farTicks.keys()) if (!alive.has(id)) this.farTicks.delete(id);
  }

  private forget(id: number): true {
    this.farTicks.delete(id);
    return true;
  }
}

const distance = (a: Vec3Like, b: Vec3Like) => Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);
