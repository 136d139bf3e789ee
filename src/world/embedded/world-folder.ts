import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ChunkFiles, syncFolder, type CapturedColumn, type ColumnClass } from './chunk-files.js';
import { registerPlayerReader } from './flying-squid.js';
import type { ContainerStore } from './plugins/containers.js';
import type { LivingStore } from './plugins/mobs.js';
import {
  readSaveFile,
  SAVE_FILE,
  SAVE_FORMAT,
  writeFileAtomically,
  writeSaveFile,
  type SaveFile,
} from './save-file.js';
import { captureDrops, restoreDrop, spilledDrops, type EntityServer } from './saved-entities.js';
import { PlayerSaves } from './saved-players.js';
import type { SquidPlayer, SquidServer } from './squid-types.js';

const require = createRequire(import.meta.url);

/*
 * An embedded world kept on disk, so a resume continues in the world a plan
 * ran in. The folder holds verbtree's marker, which names the world (a random
 * id, made once, when the scenario was laid out) so a resume can tell this
 * world from another in the same folder, and the world's save point
 * (save-file.ts) with the chunk files it names (chunk-files.ts).
 */

const MARKER = 'verbtree-world.json';
/** A SIGKILL loses at most about this much of the world. */
const SAVE_EVERY_MS = 1_000;

export interface WorldMarker {
  worldId: string;
  createdAt: number;
  scenario: string;
}

export function readWorldMarker(folder: string): WorldMarker | null {
  try {
    return JSON.parse(readFileSync(join(folder, MARKER), 'utf8')) as WorldMarker;
  } catch {
    return null;
  }
}

/** Up to when the folder holds the world (epoch ms); null when it was never saved. */
export function readSavedAt(folder: string): number | null {
  try {
    const { savedAt } = JSON.parse(readFileSync(join(folder, SAVE_FILE), 'utf8')) as { savedAt: unknown };
    return typeof savedAt === 'number' ? savedAt : null;
  } catch {
    return null;
  }
}

/**
 * Readies a folder for the server: 'fresh' empties it (only for a folder
 * verbtree manages), 'keep' reopens a verbtree world there or starts one in
 * a missing or empty folder. Returns whether the world is new, i.e. whether
 * the scenario must be laid out.
 */
export function prepareWorldFolder(folder: string, mode: 'fresh' | 'keep'): { fresh: boolean } {
  if (mode === 'fresh') rmSync(folder, { recursive: true, force: true });
  if (readWorldMarker(folder)) {
    // The marker is written after the first save: a marked folder without one was saved by an older verbtree.
    if (!existsSync(join(folder, SAVE_FILE)))
      throw new Error(
        `${folder} holds a world kept by an older verbtree (region files, no ${SAVE_FILE}), which this one cannot reopen; give a new folder, or run the plan again from its first step (--restart)`,
      );
    return { fresh: false };
  }
  if (existsSync(folder) && readdirSync(folder).length > 0) {
    throw new Error(
      `${folder} is not empty and holds no verbtree world (no ${MARKER}); give an empty or new folder, or one a verbtree run made`,
    );
  }
  mkdirSync(folder, { recursive: true });
  return { fresh: true };
}

/** The plugins whose state a save holds beside the chunks and the players. */
export interface SavedParts {
  containers: ContainerStore;
  mobs: LivingStore;
}

/**
 * Keeps a running server's world on disk as a vanilla server does, every
 * second and at stop: the chunks changed since the last save, every player,
 * dropped item, container and mob, and the time. Each save captures all of it
 * in one synchronous turn of the event loop (a dig's block change and the drop
 * it spawns happen in one turn, so a save holds both or neither) and then
 * writes it as one save point (save-file.ts): a SIGKILL at any moment leaves
 * the last complete save.
 */
export class WorldStorage {
  readonly players: PlayerSaves;
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private parts: SavedParts | null = null;
  private seq: number;
  private unregister: () => void = () => {};

  private constructor(
    private readonly serv: SquidServer,
    readonly folder: string,
    private readonly saved: SaveFile | null,
    private readonly chunks: ChunkFiles,
  ) {
    this.seq = saved?.seq ?? 0;
    this.players = new PlayerSaves(serv, saved?.players ?? []);
  }

  /**
   * Reads the folder's save point (none in a fresh world) before the server
   * starts, so a damaged folder fails before anything runs.
   */
  static read(folder: string, fresh: boolean): { attach(serv: SquidServer, settings: object): WorldStorage } {
    const saved = fresh ? null : readSaveFile(folder);
    if (!fresh && !saved) throw new Error(`${folder} holds no ${SAVE_FILE}: there is no saved world to reopen`);
    ChunkFiles.prune(folder, saved?.columns ?? {});
    return {
      /**
       * Right after flying-squid is created, before any chunk is loaded: chunks
       * come from the folder's files, and players from its save when they log
       * in (flying-squid's login reads a player from its `worldFolder`, which it
       * is given only now so that it keeps no region files and player files of
       * its own).
       */
      attach: (serv, settings) => {
        const Column = (require('prismarine-chunk') as (registry: unknown) => ColumnClass)(serv.registry);
        const chunks = new ChunkFiles(folder, Column, saved?.columns ?? {});
        const storage = new WorldStorage(serv, folder, saved, chunks);
        (serv.overworld as unknown as SavingWorld).storageProvider = chunks;
        (settings as { worldFolder?: string }).worldFolder = folder;
        storage.unregister = registerPlayerReader(folder, (uuid, spawnPoint) => storage.players.read(uuid, spawnPoint));
        return storage;
      },
    };
  }

  /** Up to when (epoch ms) the world this server started from was saved; null for a fresh world. */
  get savedUpTo(): number | null {
    return this.saved?.savedAt ?? null;
  }

  /**
   * A flying-squid plugin: the player's state is restored at login and kept
   * at flying-squid's own saves of it (end of login, logout). flying-squid's
   * world plugin defines `save` after this plugin has seen the player, so the
   * property keeps verbtree's and ignores what is assigned.
   */
  readonly plugin = {
    player: (player: SquidPlayer, serv: SquidServer) => {
      this.players.plugin.player!(player, serv);
      const save = () => {
        this.players.remember(player);
        return Promise.resolve();
      };
      Object.defineProperty(player, 'save', { configurable: true, get: () => save, set: () => undefined });
    },
  };

  /** Restores what a reopened world held besides its chunks, saves, and saves every `everyMs` (a second) from then on. */
  async start(parts: SavedParts, fresh: { scenario: string } | null, everyMs = SAVE_EVERY_MS): Promise<void> {
    this.parts = parts;
    if (this.saved) this.restore(this.saved, parts);
    await this.flush();
    if (fresh)
      await writeFileAtomically(
        join(this.folder, MARKER),
        JSON.stringify({
          worldId: randomUUID(),
          createdAt: Date.now(),
          scenario: fresh.scenario,
        } satisfies WorldMarker),
      );
    this.timer = setInterval(
      () => void this.flush().catch((error: Error) => this.serv.warn(`world save failed: ${error.message}`)),
      everyMs,
    );
    this.timer.unref();
  }

  private restore(saved: SaveFile, parts: SavedParts): void {
    const now = Date.now();
    parts.containers.restore(saved.containers);
    parts.mobs.restore(saved.mobs);
    for (const drop of saved.drops) restoreDrop(this.serv as EntityServer, drop, now);
    this.serv.setTime(saved.time);
  }

  /** Captures the world and writes it as the next save point; a flush under way is joined, not doubled. */
  flush(): Promise<void> {
    this.flushing ??= this.save().finally(() => (this.flushing = null));
    return this.flushing;
  }

  private async save(): Promise<void> {
    const world = this.serv.overworld as unknown as SavingWorld;
    const seq = this.seq + 1;
    const { columns, ...state } = this.capture(world);
    try {
      const written = await this.chunks.write(seq, columns);
      await writeSaveFile(this.folder, {
        format: SAVE_FORMAT,
        seq,
        columns: { ...this.chunks.named(), ...Object.fromEntries(written) },
        ...state,
      });
      await syncFolder(this.folder);
      this.seq = seq;
      await this.chunks.remove(this.chunks.commit(written));
    } catch (error) {
      // Not saved: the columns are saved by the next save.
      for (const { key, chunkX, chunkZ } of columns) world.savingQueue.set(key, { chunkX, chunkZ });
      throw error;
    }
    unloadSaved(world);
  }

  /** Everything the save point holds, in one synchronous turn. */
  private capture(world: SavingWorld): Omit<SaveFile, 'format' | 'seq' | 'columns'> & { columns: CapturedColumn[] } {
    const savedAt = Date.now();
    const serv = this.serv as EntityServer;
    const { players, spilled } = this.players.capture();
    return {
      savedAt,
      time: Number(serv.time),
      columns: takeChangedColumns(world),
      players,
      drops: [...captureDrops(serv, savedAt), ...spilledDrops(spilled)],
      containers: this.parts?.containers.capture() ?? [],
      mobs: this.parts?.mobs.capture() ?? [],
    };
  }

  /** The last save, then no more: what happened before the stop is on disk. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    // A flush under way began before now: one more covers everything up to the stop.
    await this.flushing?.catch(() => undefined);
    try {
      await this.flush();
    } finally {
      this.unregister();
    }
  }

  /**
   * The server died as a SIGKILL kills it: no save from now on, so the folder holds its last periodic save. A save
   * under way is let finish (its save point is written atomically, whole or not at all, so a kill during it would
   * leave the one before): a server restarted from the folder must not read it while it is still being written.
   */
  async crash(): Promise<void> {
    this.abandon();
    await this.flushing?.catch(() => undefined);
  }

  /** A start that failed: nothing more is saved (the folder keeps its last save point). */
  abandon(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.unregister();
  }
}

/** The part of prismarine-world's World that saving uses. */
export interface SavingWorld {
  savingQueue: Map<string, { chunkX: number; chunkZ: number }>;
  unloadQueue: Map<string, { chunkX: number; chunkZ: number }>;
  columns: Record<string, { toJson(): string } | undefined>;
  storageProvider: unknown;
  forceUnloadColumn(key: string, chunkX: number, chunkZ: number): void;
}

/**
 * The chunks changed since the last save, as JSON, and the queue emptied:
 * a chunk changed while the save is written queues itself again for the next.
 */
export function takeChangedColumns(world: SavingWorld): CapturedColumn[] {
  const columns: CapturedColumn[] = [];
  for (const [key, { chunkX, chunkZ }] of world.savingQueue) {
    const column = world.columns[key];
    if (column) columns.push({ key, chunkX, chunkZ, json: column.toJson() });
  }
  world.savingQueue.clear();
  return columns;
}

/** Drops from memory the columns waiting to unload once saved (prismarine-world's unload waits for their save). */
function unloadSaved(world: SavingWorld): void {
  for (const [key, { chunkX, chunkZ }] of world.unloadQueue) {
    if (world.savingQueue.has(key)) continue;
    world.forceUnloadColumn(key, chunkX, chunkZ);
  }
}
