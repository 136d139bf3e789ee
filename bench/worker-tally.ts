import type { CliProcess } from './fleet-processes.js';

/**
 * A count kept inside each fleet worker on request (FLEET_PATH_TALLY=1, FLEET_WRITE_TALLY=1): a plain-JavaScript
 * module loaded with `node --import` (the workers run the built CLI) that prints its window, `<prefix>{json}`, at each
 * SIGUSR2; the bench brackets its plan phase with two.
 */
export interface WorkerTally {
  /** Whether the environment asks for it. */
  readonly on: boolean;
  /** The node args that load it into a worker, when asked for. */
  args(): string[];
  /** Each worker's last window (the plan phase's), parsed. */
  windows<T>(processes: readonly CliProcess[]): T[];
}

export function workerTally(env: string, module: string, prefix: string): WorkerTally {
  const url = new URL(module, import.meta.url).href;
  return {
    get on() {
      return process.env[env] === '1';
    },
    args() {
      return this.on ? ['--import', url] : [];
    },
    windows<T>(processes: readonly CliProcess[]): T[] {
      return processes
        .map((w) => w.lines.filter((line) => line.startsWith(prefix)).at(-1))
        .filter((line) => line !== undefined)
        .map((line) => JSON.parse(line.slice(prefix.length)) as T);
    },
  };
}
