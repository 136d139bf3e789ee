import { createRequire } from 'node:module';
import fc from 'fast-check';
import type { Bot } from 'mineflayer';
import type { Block } from 'prismarine-block';
import type { Registry } from 'prismarine-registry';
import { describe, expect, it } from 'vitest';
import { Vec3 } from 'vec3';
import { shareBlockStates } from '../../src/world/mineflayer/shared-block-states.js';

/*
 * Issue 34, §2: physics' and the pathfinder's block lookups share one Block per state and biome. What a lookup
 * answers must be what mineflayer's own answers, block for block, in a world of any states, biomes and lights; and a
 * block changed after a lookup reads as changed.
 */

interface SyncWorld {
  getBlock(at: Vec3): Block | null;
  setBlockStateId(at: Vec3, state: number): void;
  setBiome(at: Vec3, biome: number): void;
  setBlockLight(at: Vec3, light: number): void;
  setSkyLight(at: Vec3, light: number): void;
  setColumn(chunkX: number, chunkZ: number, column: unknown): void;
  getColumnAt(at: Vec3): { setBlockEntity(local: Vec3, tag: object): void };
}

const require = createRequire(import.meta.url);
const World = (require('prismarine-world') as (version: string) => new (...args: unknown[]) => { sync: SyncWorld })(
  '1.21.4',
);
const Chunk = (require('prismarine-chunk') as (version: string) => new () => unknown)('1.21.4');
const registry = (require('prismarine-registry') as (version: string) => Registry)('1.21.4');

/** A world whose columns from -2 to 1 (blocks -32 to 31) are loaded, as a bot's are around it. */
function loadedWorld(): SyncWorld {
  const world = new World(() => new Chunk()).sync;
  for (let x = -2; x <= 1; x++) for (let z = -2; z <= 1; z++) world.setColumn(x, z, new Chunk());
  return world;
}

/** A bot of that world, with mineflayer's own lookup (blocks.js), knowing no painting. */
function botOn(world: SyncWorld, version = registry): Bot {
  const blockAt = (at: Vec3, extraInfos = true) => {
    const block = world.getBlock(at);
    if (block && extraInfos) (block as Block & { painting?: unknown }).painting = undefined;
    return block;
  };
  return { world, blockAt, registry: version } as unknown as Bot;
}

/** Everything a block says of itself, for comparing two answers. */
function described(block: Block | null) {
  if (block === null) return null;
  const { position, type, name, stateId, metadata, shapes, boundingBox, light, skyLight, hardness, transparent } =
    block;
  const entity = (block as Block & { entity?: unknown }).entity;
  return {
    position,
    type,
    name,
    stateId,
    metadata,
    shapes,
    boundingBox,
    light,
    skyLight,
    hardness,
    transparent,
    entity,
    biome: block.biome.id,
    properties: block.getProperties(),
  };
}

const states = registry.blocksArray.flatMap((b) => [b.minStateId, b.maxStateId, b.defaultState]);
const biomes = registry.biomesArray.map((b) => b.id);
const place = fc.record({
  x: fc.integer({ min: -20, max: 20 }),
  y: fc.integer({ min: -64, max: 100 }),
  z: fc.integer({ min: -20, max: 20 }),
  state: fc.constantFrom(...states),
  biome: fc.constantFrom(...biomes),
  light: fc.integer({ min: 0, max: 15 }),
  // A block entity's tag (a chest's, a sign's) at some places: the lookup reads it from the column as mineflayer does.
  entity: fc.option(fc.record({ id: fc.constantFrom('chest', 'sign'), x: fc.integer() }), { nil: undefined }),
});

describe('block lookups sharing one Block per state and biome', () => {
  it('answer what mineflayer answers for every block, changed or not, at whole and fractional positions', () => {
    fc.assert(
      fc.property(
        fc.array(place, { minLength: 1, maxLength: 40 }),
        fc.double({ min: 0, max: 0.99, noNaN: true }),
        (places, off) => {
          const world = loadedWorld();
          const mineflayers = botOn(world);
          const shared = botOn(world);
          shareBlockStates(shared);
          const read = () =>
            places.map(({ x, y, z }) => {
              const at = new Vec3(x + off, y + off, z + off);
              return [described(shared.blockAt(at, false)), described(mineflayers.blockAt(at, false))];
            });
          const readWithExtraInfos = () =>
            places.map(({ x, y, z }) => [
              described(shared.blockAt(new Vec3(x, y, z))),
              described(mineflayers.blockAt(new Vec3(x, y, z))),
            ]);
          for (const { x, y, z, state, biome, light, entity } of places) {
            const at = new Vec3(x, y, z);
            world.setBlockStateId(at, state);
            world.setBiome(at, biome);
            world.setBlockLight(at, light);
            world.setSkyLight(at, 15 - light);
            if (entity) world.getColumnAt(at).setBlockEntity(new Vec3(x & 15, y, z & 15), entity);
          }
          const first = read();
          expect(first.every(([, theirs]) => theirs !== null)).toBe(true);
          for (const [ours, theirs] of [...first, ...readWithExtraInfos()]) expect(ours).toEqual(theirs);
          // Every block changed after the lookups read once: the next reads see the change.
          for (const { x, y, z, state } of places)
            world.setBlockStateId(new Vec3(x, y, z), (state + 1) % states.length);
          for (const [ours, theirs] of read()) expect(ours).toEqual(theirs);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('share one Block per state among all the bots of a version, each with its registry and world of its own', () => {
    // Each mineflayer bot has a registry and a chunk class of its own. A lookup's prototype per bot made each bot's
    // block reads megamorphic over n bots' prototypes, slower with every bot held (issue 34, §2): the prototypes of a
    // process's lookups must not grow with the bots.
    const stone = registry.blocksByName.stone!.defaultState;
    const dirt = registry.blocksByName.dirt!.defaultState;
    const prototypes = new Set<object>();
    const bots = Array.from({ length: 12 }, () => {
      const own = (require('prismarine-registry') as (version: string) => Registry)('1.21.4');
      const OwnChunk = (require('prismarine-chunk') as (registry: Registry) => new () => unknown)(own);
      const world = new World(() => new OwnChunk()).sync;
      for (let x = -2; x <= 1; x++) for (let z = -2; z <= 1; z++) world.setColumn(x, z, new OwnChunk());
      world.setBlockStateId(new Vec3(1, 0, 1), stone);
      world.setBlockStateId(new Vec3(2, 0, 1), dirt);
      const mineflayers = botOn(world, own);
      const bot = botOn(world, own);
      shareBlockStates(bot);
      return { bot, mineflayers };
    });
    for (const { bot, mineflayers } of bots) {
      for (const at of [new Vec3(1, 0, 1), new Vec3(2, 0, 1), new Vec3(3, 5, 3)]) {
        const ours = bot.blockAt(at, false)!;
        expect(described(ours)).toEqual(described(mineflayers.blockAt(at, false)));
        prototypes.add(Object.getPrototypeOf(ours) as object);
      }
    }
    // Three states (stone, dirt, air) in one biome: three Blocks for the twelve bots.
    expect(prototypes.size).toBe(3);
  });

  it('answers null where no column is loaded, as mineflayer does', () => {
    const bot = botOn(loadedWorld());
    shareBlockStates(bot);
    expect(bot.blockAt(new Vec3(0, 64, 0), false)).not.toBeNull();
    expect(bot.blockAt(new Vec3(100, 64, 100), false)).toBeNull();
  });

  it('shares extra infos’ lookups too where the protocol announces no painting, and answers what mineflayer does', () => {
    const world = loadedWorld();
    world.setBlockStateId(new Vec3(0, 0, 0), registry.blocksByName.stone!.defaultState);
    const mineflayers = botOn(world);
    const bot = botOn(world);
    shareBlockStates(bot);
    const ours = bot.blockAt(new Vec3(0, 0, 0))! as Block & { painting?: unknown };
    expect(Object.hasOwn(ours, 'name')).toBe(false);
    expect(Object.hasOwn(ours, 'painting')).toBe(true);
    expect(ours.painting).toBeUndefined();
    expect(described(ours)).toEqual(described(mineflayers.blockAt(new Vec3(0, 0, 0))));
  });

  it('keeps mineflayer’s own lookup for extra infos where the protocol announces paintings (before 1.19)', () => {
    const world = loadedWorld();
    world.setBlockStateId(new Vec3(0, 0, 0), registry.blocksByName.stone!.defaultState);
    const bot = botOn(world, (require('prismarine-registry') as (version: string) => Registry)('1.16.5'));
    shareBlockStates(bot);
    expect(Object.hasOwn(bot.blockAt(new Vec3(0, 0, 0))!, 'name')).toBe(true);
    expect(Object.hasOwn(bot.blockAt(new Vec3(0, 0, 0), false)!, 'name')).toBe(false);
  });
});
