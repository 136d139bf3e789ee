import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/random.js';
import {
  DESPAWN_CHANCE_PER_TICK,
  DESPAWN_IDLE_TICKS,
  DESPAWN_NEAR,
  DESPAWN_NOW_BEYOND,
  Despawner,
  type Mob,
  MobDirector,
  type MobHost,
  type MobTerrain,
} from '../../src/world/mob-rules/index.js';

/*
 * Night spawning's other half (issue 30 §5, the tech tree through the night): the game takes hostiles away from
 * players (Mob.checkDespawn), so a bot that walks on does not gather every mob of the night behind it. The numbers
 * are the Minecraft Wiki's (/w/Mob_spawning#Despawning).
 */

const player = { id: 1, position: { x: 0.5, y: 5, z: 0.5 }, targetable: true };
const mobAt = (x: number): Mob => ({ id: 9, name: 'zombie', position: { x, y: 5, z: 0.5 } });

/** Ticks until the mob despawns, or null within `limit`. */
function ticksToDespawn(x: number, seed: number, limit: number): number | null {
  const despawner = new Despawner();
  const random = mulberry32(seed);
  for (let tick = 1; tick <= limit; tick++) if (despawner.despawns(mobAt(x), [player], random)) return tick;
  return null;
}

describe('despawning where the night spawns', () => {
  it('has the game’s numbers: at once beyond 128 blocks; beyond 32 after 30 s out there, 1 in 800 a tick', () => {
    expect([DESPAWN_NOW_BEYOND, DESPAWN_NEAR, DESPAWN_IDLE_TICKS, DESPAWN_CHANCE_PER_TICK]).toEqual([
      128,
      32,
      600,
      1 / 800,
    ]);
  });

  it('takes a mob beyond 128 blocks at once, never one within 32, one between only after 600 ticks out there', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), (seed) => {
        expect(ticksToDespawn(DESPAWN_NOW_BEYOND + 2, seed, 1)).toBe(1);
        expect(ticksToDespawn(DESPAWN_NEAR - 1, seed, 5_000)).toBeNull();
        const far = ticksToDespawn(60, seed, 100_000);
        expect(far).not.toBeNull();
        expect(far!).toBeGreaterThan(DESPAWN_IDLE_TICKS);
      }),
      { numRuns: 50 },
    );
  });

  it('keeps no despawn where the scenario spawns nothing: a world keeps the mobs it was given', () => {
    const terrain: MobTerrain = { block: (_x, y) => (y === 4 ? 'grass_block' : y < 4 ? 'stone' : 'air') };
    const host = (gone: number[]): MobHost => ({
      terrain,
      timeOfDay: () => 6000,
      players: () => [player],
      mobs: () => (gone.length === 0 ? [mobAt(200)] : []),
      hostilePositions: () => [],
      move: () => {},
      wornBy: () => [],
      hurtPlayer: () => {},
      hurtMob: () => {},
      swelling: () => {},
      aggressive: () => {},
      explode: () => {},
      spawn: () => {},
      despawn: (mob) => gone.push(mob.id),
    });
    const withSpawning: number[] = [];
    new MobDirector(mulberry32(1), { kinds: ['zombie'], maxNearby: 5, radius: 40 }).tick(host(withSpawning), 1);
    expect(withSpawning).toEqual([9]);
    const without: number[] = [];
    new MobDirector(mulberry32(1), null).tick(host(without), 1);
    expect(without).toEqual([]);
  });
});
