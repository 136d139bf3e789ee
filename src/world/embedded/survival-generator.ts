import { createRequire } from 'node:module';
import { Vec3 } from 'vec3';
import { survivalTerrain } from '../terrain/survival-terrain.js';

const require = createRequire(import.meta.url);

/** Name under which the generator is registered with flying-squid. */
export const SURVIVAL_GENERATOR = 'verbtree_survival';

/** Highest y the survival terrain fills (hills top out near 32; trees stand a few above). */
const TOP = 48;

interface Registry {
  blocksByName: Record<string, { defaultState: number }>;
}

/**
 * flying-squid's chunk generator for the survival terrain: each chunk is filled
 * from the same pure function SimWorld reads its ground from, so both hold the
 * same block at every cell for a seed.
 */
// The seed travels as terrainSeed: flying-squid replaces a `seed` of 0 by a random one and by level.dat's.
export function survivalGenerator(options: {
  registry: Registry;
  terrainSeed: number;
}): (chunkX: number, chunkZ: number) => unknown {
  const loadChunk = require('prismarine-chunk') as (registry: Registry) => new () => {
    setBlockStateId(position: Vec3, state: number): void;
  };
  const Chunk = loadChunk(options.registry);
  const terrain = survivalTerrain(options.terrainSeed);
  const states = new Map(terrain.blockNames.map((name) => [name, options.registry.blocksByName[name]!.defaultState]));
  return (chunkX, chunkZ) => {
    const chunk = new Chunk();
    const position = new Vec3(0, 0, 0);
    for (let x = 0; x < 16; x++) {
      for (let z = 0; z < 16; z++) {
        position.x = x;
        position.z = z;
        for (let y = 0; y <= TOP; y++) {
          const name = terrain.blockAt(chunkX * 16 + x, y, chunkZ * 16 + z);
          if (name === 'air') continue;
          position.y = y;
          chunk.setBlockStateId(position, states.get(name)!);
        }
      }
    }
    return chunk;
  };
}
