import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Item as ItemInstance } from 'prismarine-item';
import type { Registry } from 'prismarine-registry';
import { Vec3 } from 'vec3';
import { ChunkFiles, CHUNK_FOLDER, type ColumnClass } from '../../src/world/embedded/chunk-files.js';
import { ServerWindows } from '../../src/world/embedded/plugins/server-windows.js';
import { readSaveFile, SAVE_FILE, writeSaveFile, type SaveFile } from '../../src/world/embedded/save-file.js';
import { capturePlayer } from '../../src/world/embedded/saved-players.js';
import type { SquidPlayer, SquidServer } from '../../src/world/embedded/squid-types.js';
import { takeChangedColumns, type SavingWorld } from '../../src/world/embedded/world-folder.js';

type TestWorld = SavingWorld & { setBlockStateId(at: Vec3, state: number): Promise<void> };
type ChunkColumn = { getBlockStateId(at: Vec3): number };

const require = createRequire(import.meta.url);
const World = (require('prismarine-world') as (version: string) => new (...args: unknown[]) => TestWorld)('1.21.4');
const Chunk = (require('prismarine-chunk') as (version: string) => ColumnClass & (new () => unknown))('1.21.4');
const registry = (require('prismarine-registry') as (version: string) => Registry)('1.21.4');
const Item = (require('prismarine-item') as (r: Registry) => new (type: number, count: number) => ItemInstance)(
  registry,
);
const windows = (
  require('prismarine-windows') as (r: Registry) => { createWindow(id: number, type: string, title: string): unknown }
)(registry);

const stone = registry.blocksByName.stone!.defaultState;
const dirt = registry.blocksByName.dirt!.defaultState;
const item = (name: string, count: number) => new Item(registry.itemsByName[name]!.id, count);

function folder(): string {
  return mkdtempSync(join(tmpdir(), 'verbtree-save-'));
}

/** A world whose chunks start empty and are queued for saving as prismarine-world queues them. */
function worldWithStorage() {
  const storage = { load: () => Promise.resolve(null), save: () => Promise.resolve() };
  return new World(() => new Chunk(), storage, 0);
}

function saveOf(columns: Record<string, string>, seq: number): SaveFile {
  return { format: 1, seq, savedAt: seq, time: 0, columns, players: [], drops: [], containers: [], mobs: [] };
}

describe('capturing the chunks of a save', () => {
  it('takes each changed column as it is at the capture; a change after it queues the column for the next save', async () => {
    const world = worldWithStorage();
    await world.setBlockStateId(new Vec3(1, 5, 1), stone);
    const [captured, ...rest] = takeChangedColumns(world);
    expect(rest).toEqual([]);
    expect(world.savingQueue.size).toBe(0);
    await world.setBlockStateId(new Vec3(2, 5, 1), dirt); // while the save is written
    const onDisk = Chunk.fromJson(captured!.json) as unknown as ChunkColumn;
    expect(onDisk.getBlockStateId(new Vec3(1, 5, 1))).toBe(stone);
    expect(onDisk.getBlockStateId(new Vec3(2, 5, 1))).toBe(0);
    expect([...world.savingQueue.keys()]).toEqual(['0,0']);
  });
});

describe('chunk files', () => {
  it('a column reads back as its last committed file; the file it replaced is removed', async () => {
    const dir = folder();
    const world = worldWithStorage();
    const files = new ChunkFiles(dir, Chunk, {});
    await world.setBlockStateId(new Vec3(1, 5, 1), stone);
    const first = await files.write(1, takeChangedColumns(world));
    await files.remove(files.commit(first));
    await world.setBlockStateId(new Vec3(1, 5, 1), dirt);
    const second = await files.write(2, takeChangedColumns(world));
    await files.remove(files.commit(second));
    expect(readdirSync(join(dir, CHUNK_FOLDER))).toEqual(['0.0.2.json.gz']);
    const loaded = (await files.load(0, 0)) as unknown as ChunkColumn;
    expect(loaded.getBlockStateId(new Vec3(1, 5, 1))).toBe(dirt);
    expect(await files.load(5, 5)).toBeNull();
  });

  it('a save killed after writing its chunk files but before its save file: the last save point reads whole, the orphans go', async () => {
    const dir = folder();
    const world = worldWithStorage();
    let files = new ChunkFiles(dir, Chunk, {});
    await world.setBlockStateId(new Vec3(1, 5, 1), stone);
    files.commit(await files.write(1, takeChangedColumns(world)));
    await writeSaveFile(dir, saveOf(files.named(), 1));
    // The next save: the dig is written to a chunk file, then the process dies, mid-rename of the save file.
    await world.setBlockStateId(new Vec3(1, 5, 1), 0);
    await files.write(2, takeChangedColumns(world));
    writeFileSync(join(dir, `${SAVE_FILE}.tmp`), '{"format":1,"se');

    const saved = readSaveFile(dir)!;
    expect(saved.seq).toBe(1);
    ChunkFiles.prune(dir, saved.columns);
    expect(readdirSync(join(dir, CHUNK_FOLDER))).toEqual(['0.0.1.json.gz']);
    files = new ChunkFiles(dir, Chunk, saved.columns);
    const loaded = (await files.load(0, 0)) as unknown as ChunkColumn;
    expect(loaded.getBlockStateId(new Vec3(1, 5, 1))).toBe(stone);
  });

  it('a save naming a chunk file that is gone fails naming it', () => {
    const dir = folder();
    expect(() => ChunkFiles.prune(dir, { '0,0': '0.0.1.json.gz' })).toThrow(
      /lacks 1 chunk file its save names \(0\.0\.1\.json\.gz\)/,
    );
  });
});

describe('the save file', () => {
  it('is absent in a new folder, and written whole by rename, leaving no temporary file', async () => {
    const dir = folder();
    expect(readSaveFile(dir)).toBeNull();
    await writeSaveFile(dir, saveOf({ '0,0': '0.0.1.json.gz' }, 1));
    expect(readSaveFile(dir)).toEqual(saveOf({ '0,0': '0.0.1.json.gz' }, 1));
    expect(existsSync(join(dir, `${SAVE_FILE}.tmp`))).toBe(false);
  });

  it('one it cannot read fails naming the field', () => {
    const dir = folder();
    writeFileSync(join(dir, SAVE_FILE), JSON.stringify({ ...saveOf({}, 1), players: [{ username: 'x' }] }));
    expect(() => readSaveFile(dir)).toThrow(
      /verbtree-save\.json is not a save this verbtree can read: players\.0\.uuid/,
    );
    writeFileSync(join(dir, SAVE_FILE), '{"format":1,"se');
    expect(() => readSaveFile(dir)).toThrow(/is not JSON .*the world folder is damaged/);
  });
});

describe("a player's pack in a save", () => {
  const serv = { registry } as unknown as SquidServer;
  const server = new ServerWindows(serv);

  function player(): SquidPlayer {
    const inventory = windows.createWindow(0, 'minecraft:inventory', 'Inventory') as SquidPlayer['inventory'];
    return {
      uuid: 'u',
      username: 'saver',
      position: new Vec3(1, 5, 2),
      health: 18,
      food: 17,
      foodSaturation: 2,
      heldItemSlot: 0,
      gameMode: 0,
      inventory,
      _client: { write: () => undefined },
    } as unknown as SquidPlayer;
  }

  const counts = (p: SquidPlayer) => {
    const { saved, spill } = capturePlayer(p);
    const pack: Record<string, number> = {};
    for (const item of saved.inventory) pack[item.name] = (pack[item.name] ?? 0) + item.count;
    return { pack, spill: spill.map((i) => `${i.count} ${i.name}`) };
  };

  it('holds what the cursor and the 2×2 grid hold, back in the pack as closing the inventory puts them', () => {
    const p = player();
    p.inventory.updateSlot(36, item('oak_planks', 3));
    p.inventory.updateSlot(1, item('oak_planks', 1));
    p.inventory.selectedItem = item('cobblestone', 5);
    expect(counts(p)).toEqual({ pack: { oak_planks: 4, cobblestone: 5 }, spill: [] });
  });

  it('reads the pack from an open chest window, where the clicks went, not from the stale inventory', () => {
    const p = player();
    p.inventory.updateSlot(36, item('cobblestone', 10));
    const chest = server.open(p, 101, 'minecraft:generic_9x3', 'Chest');
    // Six moved into the chest through the window; the player's inventory learns it only when the window closes.
    chest.updateSlot(0, item('cobblestone', 6));
    chest.updateSlot(27 + 27, item('cobblestone', 4));
    expect(counts(p).pack).toEqual({ cobblestone: 4 });
    server.close(p, chest);
    expect(counts(p).pack).toEqual({ cobblestone: 4 });
  });

  it('spills what no longer fits the pack', () => {
    const p = player();
    for (let slot = 9; slot <= 44; slot++) p.inventory.updateSlot(slot, item('stone', 64));
    p.inventory.selectedItem = item('dirt', 2);
    expect(counts(p).spill).toEqual(['2 dirt']);
  });
});
