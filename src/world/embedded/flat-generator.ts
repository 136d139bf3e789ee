import { createRequire } from 'node:module';
import { Vec3 } from 'vec3';

const require = createRequire(import.meta.url);

/** Name under which the generator is registered with flying-squid. */
export const FLAT_GENERATOR = 'verbtree_flat';

const LAYERS = ['bedrock', 'dirt', 'dirt', 'dirt', 'grass_block'];

interface Registry {
  blocksByName: Record<string, { defaultState: number }>;
}

/**
 * The same ground as flying-squid's superflat (bedrock at y=0, dirt, grass at
 * y=4) about 7× faster: it sets only the five ground layers instead of writing
 * light and biome for all 256 heights of every column, which made the first
 * spawn wait ~0.5 s for chunk generation.
 */
export function flatGenerator(options: { registry: Registry }): () => unknown {
  const loadChunk = require('prismarine-chunk') as (registry: Registry) => new () => {
    setBlockStateId(position: Vec3, state: number): void;
  };
  const Chunk = loadChunk(options.registry);
  const states = LAYERS.map((name) => options.registry.blocksByName[name]!.defaultState);
  return () => {
    const chunk = new Chunk();
    const position = new Vec3(0, 0, 0);
    for (let x = 0; x < 16; x++) {
      for (let z = 0; z < 16; z++) {
        position.x = x;
        position.z = z;
        for (let y = 0; y < states.length; y++) {
          position.y = y;
          chunk.setBlockStateId(position, states[y]!);
        }
      }
    }
    return chunk;
  };
}
