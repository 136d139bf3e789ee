import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { CLI_ENTRY_ENV } from '../helpers/cli-build.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');

/**
 * The CLI as a child process, so a test can SIGKILL it: test/journal/run-cli.ts as vitest's global setup compiled it
 * with the sources (test/helpers/cli-build.ts), on plain node.
 */
export function cliProcess(args: string[], env: NodeJS.ProcessEnv = process.env): ChildProcess {
  const entry = process.env[CLI_ENTRY_ENV];
  if (!entry) throw new Error(`${CLI_ENTRY_ENV} is unset: run the tests with vitest.config.ts (its globalSetup)`);
  return spawn(process.execPath, [entry, ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Everything the child printed, and how it ended. Call it before reading its stdout line by line. */
export function finished(
  child: ChildProcess,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }> {
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  child.stderr!.on('data', (chunk) => (err += chunk));
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, out, err })));
}

/** Reads a `--json` child's events until one matches; the events read so far. */
export async function untilEvent(
  child: ChildProcess,
  matches: (event: { type: string; stepId?: string }) => boolean,
): Promise<{ type: string; stepId?: string }[]> {
  const seen: { type: string; stepId?: string }[] = [];
  for await (const line of createInterface({ input: child.stdout! })) {
    const event = JSON.parse(line) as { type: string; stepId?: string };
    seen.push(event);
    if (matches(event)) return seen;
  }
  throw new Error(`the child ended before the awaited event; it printed ${seen.map((e) => e.type).join(', ')}`);
}
