import type { Dirent } from 'node:fs';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { extname, join, relative, isAbsolute } from 'node:path';
import type { TreeSourceText } from './tree-catalog.js';
import { TREE_EXTENSIONS } from './tree-source.js';

function isTreeFile(path: string): boolean {
  return (TREE_EXTENSIONS as readonly string[]).includes(extname(path));
}

function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ELOOP') return 'a symlink loop';
  if (code === 'ENOENT') return 'no such file (a broken symlink?)';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return (error as Error).message;
}

function inside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Tree files under `path` (a file, or a folder searched recursively). A symlink
 * is followed only while it stays inside the folder named, each folder is read
 * once (so a link to a parent ends there), and what cannot be read (a symlink
 * loop, a link out of the folder, a broken link) comes back with the reason
 * instead of throwing.
 */
export async function readTreeFolder(path: string): Promise<TreeSourceText[]> {
  const sources: TreeSourceText[] = [];
  const unreadable = (file: string, reason: string): void =>
    void sources.push({ file, text: '', unreadable: `cannot read: ${reason}` });
  const read = async (file: string): Promise<void> => {
    try {
      sources.push({ file, text: await readFile(file, 'utf8') });
    } catch (error) {
      unreadable(file, reasonOf(error));
    }
  };
  let top;
  try {
    top = await stat(path);
  } catch (error) {
    unreadable(path, reasonOf(error));
    return sources;
  }
  if (!top.isDirectory()) {
    await read(path);
    return sources;
  }
  const folder = await realpath(path);
  const seen = new Set<string>([folder]);
  const visit = async (dir: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      unreadable(dir, reasonOf(error));
      return;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const entryPath = join(dir, entry.name);
      let real = entryPath;
      let isDirectory = entry.isDirectory();
      if (entry.isSymbolicLink()) {
        try {
          real = await realpath(entryPath);
          isDirectory = (await stat(real)).isDirectory();
        } catch (error) {
          if (isTreeFile(entryPath) || (error as NodeJS.ErrnoException).code === 'ELOOP')
            unreadable(entryPath, `${reasonOf(error)}; not followed`);
          continue;
        }
        if (!inside(folder, real)) {
          if (isDirectory || isTreeFile(entryPath))
            unreadable(
              entryPath,
              `a symlink to ${real}, outside ${path}; not followed (copy the file in, or pass it as a path)`,
            );
          continue;
        }
      } else if (isDirectory) {
        real = await realpath(entryPath);
      }
      if (isDirectory) {
        if (seen.has(real)) continue;
        seen.add(real);
        await visit(entryPath);
      } else if (isTreeFile(entryPath)) {
        await read(entryPath);
      }
    }
  };
  await visit(path);
  return sources;
}
