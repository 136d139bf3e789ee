import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CliUsageError } from './io.js';

/** Expands each argument: a file stands for itself, a folder for the `*.plan.json` files directly inside it. */
export async function planFiles(paths: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    const info = await stat(path).catch(() => {
      throw new CliUsageError(`cannot read ${path}: no such file or folder`);
    });
    if (!info.isDirectory()) {
      files.push(path);
      continue;
    }
    const plans = (await readdir(path)).filter((name) => name.endsWith('.plan.json')).sort();
    if (plans.length === 0) throw new CliUsageError(`${path} holds no *.plan.json files`);
    files.push(...plans.map((name) => join(path, name)));
  }
  return files;
}
