import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { CHILD_ENTRY_ENV } from '../../src/world/embedded/child-server.js';

/** The environment variable naming the run's compiled CLI entry (test/journal/cli-process.ts spawns it). */
export const CLI_ENTRY_ENV = 'VERBTREE_TEST_CLI_ENTRY';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// Under node_modules (no package.json between it and the root): packageRoot() from the compiled code is still this
// repository's, so the children read its trees/, and createRequire finds its node_modules.
const cacheDir = join(root, 'node_modules', '.cache', 'verbtree-test-cli');

function typeScriptFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => !file.includes(join('src', 'monitor')));
}

/**
 * vitest's global setup: the sources (and test/journal/run-cli.ts, the CLI's entry) compiled to JavaScript once per
 * run, by esbuild as tsx compiles them. A CLI child, and an embedded server's child (`isolation: 'child-process'`),
 * then runs on plain node: under tsx each of its modules passed
 * tsx's loader thread, which took about half the CPU of a child's start (`--help`: 4.1 s, compiled 2.3 s).
 */
export async function setup(): Promise<() => void> {
  mkdirSync(cacheDir, { recursive: true });
  // A folder of the run's own: two runs at once in one checkout must not remove each other's.
  const outDir = mkdtempSync(join(cacheDir, 'run-'));
  const built = await build({
    entryPoints: [...typeScriptFiles('src'), ...typeScriptFiles('capabilities'), join(root, 'test/journal/run-cli.ts')],
    outdir: outDir,
    outbase: root,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    tsconfig: join(root, 'tsconfig.json'),
    write: false,
    logLevel: 'error',
  });
  const index = join(outDir, 'src', 'index.js');
  for (const file of built.outputFiles) {
    mkdirSync(dirname(file.path), { recursive: true });
    // As tsconfig.json's paths: `verbtree` in a capability means this repository's sources (esbuild's alias applies
    // only when it bundles).
    const up = relative(dirname(file.path), index);
    const specifier = up.startsWith('.') ? up : `./${up}`;
    writeFileSync(file.path, file.text.replaceAll('from "verbtree"', `from "${specifier}"`));
  }
  process.env[CLI_ENTRY_ENV] = join(outDir, 'test', 'journal', 'run-cli.js');
  process.env[CHILD_ENTRY_ENV] = join(outDir, 'src', 'world', 'embedded', 'child-entry.js');
  return () => rmSync(outDir, { recursive: true, force: true });
}
