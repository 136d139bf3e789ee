import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SquidPlayer, SquidServer } from './squid-types.js';

/*
 * An embedded world kept on disk, so a resume continues in the world a plan
 * ran in: flying-squid's world folder (region files, level.dat, playerdata)
 * and two files of verbtree's. The marker names the world (a random id, made
 * once, when the scenario was laid out), so a resume can tell this world from
 * another in the same folder. The save stamp says up to when the folder holds
 * the world: everything that happened before it is on disk.
 */

const MARKER = 'verbtree-world.json';
const SAVE_STAMP = 'verbtree-saved.json';
/** As often as prismarine-world saves chunks by default: a SIGKILL loses at most about this much. */
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
    const { savedAt } = JSON.parse(readFileSync(join(folder, SAVE_STAMP), 'utf8')) as { savedAt: number };
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
  if (readWorldMarker(folder)) return { fresh: false };
  if (existsSync(folder) && readdirSync(folder).length > 0) {
    throw new Error(
      `${folder} is not empty and holds no verbtree world (no ${MARKER}); give an empty or new folder, or one a verbtree run made`,
    );
  }
  mkdirSync(folder, { recursive: true });
  return { fresh: true };
}

function writeAtomically(path: string, body: unknown): void {
  writeFileSync(`${path}.tmp`, JSON.stringify(body));
  renameSync(`${path}.tmp`, path);
}

/**
 * Keeps a running server's world on disk: players are saved one save at a time
 * (flying-squid saves on logout too, and two writes of one file must not
 * interleave), the world and every player are flushed every second and at
 * stop, and each complete flush stamps the time it began. A fresh world gets
 * its marker once its scenario is laid out and flushed.
 */
export class WorldStorage {
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private readonly saves = new Map<SquidPlayer, Promise<void>>();

  constructor(
    private readonly serv: SquidServer,
    readonly folder: string,
  ) {}

  /**
   * A flying-squid plugin: each player's saves run one after another. Plugins
   * like this one see a player before flying-squid's world plugin defines its
   * `save`, so the property holds whatever is assigned and hands out the queue.
   */
  readonly plugin = {
    player: (player: SquidPlayer) => {
      let save = player.save as (() => Promise<void>) | undefined;
      const queued = () => {
        const next = (this.saves.get(player) ?? Promise.resolve())
          .then(() => save?.call(player))
          .catch(() => undefined);
        this.saves.set(player, next);
        return next;
      };
      Object.defineProperty(player, 'save', {
        configurable: true,
        get: () => queued,
        set: (assigned: () => Promise<void>) => (save = assigned),
      });
    },
  };

  async start(fresh: { scenario: string } | null): Promise<void> {
    // One saver for chunks and players, so a save stamp covers both.
    (this.serv.overworld as unknown as SavingWorld).stopSaving();
    await this.flush();
    if (fresh)
      writeAtomically(join(this.folder, MARKER), {
        worldId: randomUUID(),
        createdAt: Date.now(),
        scenario: fresh.scenario,
      } satisfies WorldMarker);
    this.timer = setInterval(
      () => void this.flush().catch((error: Error) => this.serv.warn(`world save failed: ${error.message}`)),
      SAVE_EVERY_MS,
    );
    this.timer.unref();
  }

  /** Saves every player and every changed chunk, then stamps when the save began. */
  flush(): Promise<void> {
    this.flushing ??= (async () => {
      const began = Date.now();
      await Promise.all(this.serv.players.map((p) => (p.save as () => Promise<void>)()));
      await saveChangedChunks(this.serv.overworld as unknown as SavingWorld);
      writeAtomically(join(this.folder, SAVE_STAMP), { savedAt: began });
    })().finally(() => (this.flushing = null));
    return this.flushing;
  }

  /** The last flush, before the players leave; then waits for the saves their logouts start. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    // A flush under way began before now: one more covers everything up to the stop.
    await this.flushing;
    await this.flush();
  }

  async settled(): Promise<void> {
    await Promise.all(this.saves.values());
  }
}

/** The part of prismarine-world's World that saving uses. */
interface SavingWorld {
  savingQueue: Map<string, { chunkX: number; chunkZ: number }>;
  unloadQueue: Map<string, { chunkX: number; chunkZ: number }>;
  columns: Record<string, unknown>;
  storageProvider: { save(chunkX: number, chunkZ: number, column: unknown): Promise<void> } | null;
  stopSaving(): void;
  forceUnloadColumn(key: string, chunkX: number, chunkZ: number): void;
}

/**
 * Saves the chunks changed since the last save. prismarine-world's own
 * `saveNow` empties its queue after the writes end, so a chunk changed while
 * they were under way was dropped from the queue unsaved, and a later save
 * stamp claimed it (a dig lost on disk after a crash). Here the queue is
 * taken before writing: a change made meanwhile queues its chunk again.
 */
export async function saveChangedChunks(world: SavingWorld): Promise<void> {
  const provider = world.storageProvider;
  if (!provider || world.savingQueue.size === 0) return;
  const batch = [...world.savingQueue];
  world.savingQueue.clear();
  await Promise.all(batch.map(([key, { chunkX, chunkZ }]) => provider.save(chunkX, chunkZ, world.columns[key])));
  for (const [key, { chunkX, chunkZ }] of world.unloadQueue) {
    if (world.savingQueue.has(key)) continue;
    world.unloadQueue.delete(key);
    world.forceUnloadColumn(key, chunkX, chunkZ);
  }
}
