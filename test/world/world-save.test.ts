import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { Vec3 } from 'vec3';
import { saveChangedChunks } from '../../src/world/embedded/world-folder.js';

const require = createRequire(import.meta.url);
/** The parts of prismarine-world and prismarine-chunk the test drives (saveChangedChunks reads the world's queues). */
type World = Parameters<typeof saveChangedChunks>[0] & {
  setBlockStateId(position: Vec3, stateId: number): Promise<void>;
};
type WorldClass = new (generate: () => Chunk, provider: ReturnType<typeof heldProvider>, saveInterval: number) => World;
interface Chunk {
  getBlockStateId(position: Vec3): number;
}
type ChunkClass = { new (): Chunk; fromJson(json: string): Chunk };
const World = (require('prismarine-world') as (version: string) => WorldClass)('1.21.4');
const Chunk = (require('prismarine-chunk') as (version: string) => ChunkClass)('1.21.4');
const registry = (require('prismarine-registry') as typeof import('prismarine-registry'))('1.21.4');

/** A storage provider that keeps what each save wrote, and can hold a save open until released. */
function heldProvider() {
  const saved = new Map<string, string>();
  let release: (() => void) | null = null;
  let held: Promise<void> | null = null;
  return {
    saved,
    hold() {
      held = new Promise((resolve) => (release = resolve));
    },
    release: () => release?.(),
    load: () => Promise.resolve(null),
    async save(chunkX: number, chunkZ: number, column: { toJson(): string }) {
      const copy = column.toJson();
      if (held) await held;
      saved.set(`${chunkX},${chunkZ}`, copy);
    },
  };
}

const stone = registry.blocksByName.stone!.defaultState;
const dirt = registry.blocksByName.dirt!.defaultState;

describe('saving the embedded world', () => {
  it('a chunk changed while a save is being written is written by the next save', async () => {
    const provider = heldProvider();
    const world = new World(() => new Chunk(), provider, 0);
    await world.setBlockStateId(new Vec3(1, 5, 1), stone);

    provider.hold();
    const first = saveChangedChunks(world);
    await world.setBlockStateId(new Vec3(2, 5, 1), dirt); // changed while the first save is under way
    provider.release();
    await first;
    await saveChangedChunks(world);

    const onDisk = Chunk.fromJson(provider.saved.get('0,0')!);
    expect(onDisk.getBlockStateId(new Vec3(1, 5, 1))).toBe(stone);
    expect(onDisk.getBlockStateId(new Vec3(2, 5, 1))).toBe(dirt);
  });

  it('saves nothing when nothing changed, and leaves no chunk queued after a quiet save', async () => {
    const provider = heldProvider();
    const world = new World(() => new Chunk(), provider, 0);
    await saveChangedChunks(world);
    expect(provider.saved.size).toBe(0);
    await world.setBlockStateId(new Vec3(20, 5, 1), stone);
    await saveChangedChunks(world);
    expect([...provider.saved.keys()]).toEqual(['1,0']);
    expect(world.savingQueue.size).toBe(0);
  });
});
