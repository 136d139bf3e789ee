import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';

const gzipped = promisify(gzip);
const gunzipped = promisify(gunzip);

export const CHUNK_FOLDER = 'chunks';

export interface SavableColumn {
  toJson(): string;
}

/** prismarine-chunk's column class for the server's version. */
export interface ColumnClass {
  fromJson(json: string): SavableColumn;
}

/** A column as one save captured it: its blocks as JSON, taken in the same instant as the rest of the save. */
export interface CapturedColumn {
  key: string;
  chunkX: number;
  chunkZ: number;
  json: string;
}

/**
 * The blocks of a kept world: one gzipped file per chunk column, named by the
 * column and the save that wrote it (`chunks/<x>.<z>.<seq>.json.gz`). A file is
 * written once and never changed; the save file names the current one of each
 * column, so a save killed before its save file is renamed leaves the previous
 * save's files untouched, and the files it did write are orphans the next
 * open removes. A column's older file is removed once a save naming its newer
 * one is in place.
 */
export class ChunkFiles {
  private readonly files: Map<string, string>;
  private readonly dir: string;

  constructor(
    folder: string,
    private readonly Column: ColumnClass,
    files: Record<string, string>,
  ) {
    this.dir = join(folder, CHUNK_FOLDER);
    this.files = new Map(Object.entries(files));
  }

  /** The current file of each column, as the next save file names them. */
  named(): Record<string, string> {
    return Object.fromEntries(this.files);
  }

  /** prismarine-world's storage provider: the column as last saved, or null for the generator to make it. */
  async load(chunkX: number, chunkZ: number): Promise<SavableColumn | null> {
    const file = this.files.get(`${chunkX},${chunkZ}`);
    if (!file) return null;
    const json = (await gunzipped(await readFile(join(this.dir, file)))).toString('utf8');
    return this.Column.fromJson(json);
  }

  /** prismarine-world's own saver would call this; WorldStorage stops that saver and saves through `write`. */
  save(): Promise<void> {
    return Promise.reject(new Error('the kept world saves its chunks through WorldStorage, not prismarine-world'));
  }

  /** Writes each captured column to a new file of save `seq`, flushed to disk; returns column → file. */
  async write(seq: number, columns: readonly CapturedColumn[]): Promise<Map<string, string>> {
    if (columns.length === 0) return new Map();
    mkdirSync(this.dir, { recursive: true });
    const written = new Map<string, string>();
    await Promise.all(
      columns.map(async ({ key, chunkX, chunkZ, json }) => {
        const file = `${chunkX}.${chunkZ}.${seq}.json.gz`;
        const handle = await open(join(this.dir, file), 'w');
        try {
          await handle.writeFile(await gzipped(json));
          await handle.sync();
        } finally {
          await handle.close();
        }
        written.set(key, file);
      }),
    );
    await syncFolder(this.dir);
    return written;
  }

  /** Makes `written` the columns' current files once a save naming them is in place; returns the files it replaced. */
  commit(written: ReadonlyMap<string, string>): string[] {
    const replaced: string[] = [];
    for (const [key, file] of written) {
      const before = this.files.get(key);
      if (before && before !== file) replaced.push(before);
      this.files.set(key, file);
    }
    return replaced;
  }

  async remove(files: readonly string[]): Promise<void> {
    await Promise.all(files.map((file) => rm(join(this.dir, file), { force: true })));
  }

  /**
   * Before a kept world opens: the files its save names must all be there (else the folder is
   * damaged), and any other file is an orphan of a save killed before its
   * save file was renamed, removed so a later save may reuse its name.
   */
  static prune(folder: string, files: Record<string, string>): void {
    const dir = join(folder, CHUNK_FOLDER);
    const present = existsSync(dir) ? readdirSync(dir) : [];
    const named = new Set(Object.values(files));
    const missing = [...named].filter((file) => !present.includes(file));
    if (missing.length > 0)
      throw new Error(
        `${dir} lacks ${missing.length} chunk file${missing.length === 1 ? '' : 's'} its save names (${missing.slice(0, 3).join(', ')}); the world folder is damaged`,
      );
    for (const file of present) if (!named.has(file)) rmSync(join(dir, file), { force: true });
  }
}

/** Flushes a folder's entries (a new or renamed file) to disk. */
export async function syncFolder(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
