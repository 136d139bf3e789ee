import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/**
 * The processes of the fleet bench: `verbtree world` and `verbtree worker` run from bin/verbtree.js (the built CLI, as
 * a user runs them), their stdout read line by line, their CPU read from /proc, and every one of them stopped when the
 * bench ends, however it ends (Ctrl-C included).
 */

const CLI = fileURLToPath(new URL('../bin/verbtree.js', import.meta.url));
const STOP_WAIT_MS = 10_000;
/**
 * A profiled process writes its whole life's profile as it exits, after its bots are gone: at 300 bots the workers'
 * profiles of a row were lost to the SIGKILL at 10 s.
 */
const PROFILED_STOP_WAIT_MS = 90_000;

export class CliProcess {
  readonly lines: string[] = [];
  readonly exited: Promise<number | null>;
  private readonly waiters: { test: (line: string) => boolean; resolve: (line: string) => void }[] = [];
  private readonly child: ChildProcess;
  /** What it has used so far, or its last reading once it has exited (a worker gone mid-row is a figure, not a crash). */
  readonly usage: ProcessUsage;

  constructor(
    readonly label: string,
    args: readonly string[],
    env: Record<string, string> = {},
    nodeArgs: readonly string[] = [],
  ) {
    this.child = spawn(process.execPath, [...nodeArgs, CLI, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    this.usage = new ProcessUsage(this.child.pid!);
    this.profiled = nodeArgs.includes('--cpu-prof');
    running.add(this);
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code) => {
        running.delete(this);
        this.usage.stop();
        resolve(code);
      }),
    );
    createInterface({ input: this.child.stdout! }).on('line', (line) => this.heard(line));
    const errors: string[] = [];
    createInterface({ input: this.child.stderr! }).on('line', (line) => errors.push(line));
    void this.exited.then((code) => {
      if (code !== 0 && code !== null && !this.stopping)
        process.stderr.write(`fleet bench: ${label} exited ${code}:\n  ${errors.slice(-10).join('\n  ')}\n`);
    });
  }

  private stopping = false;
  private readonly profiled: boolean;

  get pid(): number {
    return this.child.pid!;
  }

  /** The first line (already heard or to come) that passes `test`; rejects if the process exits first. */
  line(test: (line: string) => boolean): Promise<string> {
    const heard = this.lines.find(test);
    if (heard !== undefined) return Promise.resolve(heard);
    return new Promise((resolve, reject) => {
      this.waiters.push({ test, resolve });
      void this.exited.then((code) => reject(new Error(`${this.label} exited (${code}) before the line it awaited`)));
    });
  }

  signal(name: NodeJS.Signals): void {
    if (this.child.exitCode === null) this.child.kill(name);
  }

  /** SIGTERM (the CLI's own clean stop), then SIGKILL if it has not exited within STOP_WAIT_MS. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.signal('SIGTERM');
    const timer = setTimeout(() => this.signal('SIGKILL'), this.profiled ? PROFILED_STOP_WAIT_MS : STOP_WAIT_MS);
    await this.exited;
    clearTimeout(timer);
  }

  private heard(line: string): void {
    this.lines.push(line);
    for (const waiter of this.waiters.filter((w) => w.test(line))) {
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve(line);
    }
  }
}

const running = new Set<CliProcess>();

/** Kills every process the bench started and runs `cleanup` (the cluster's stop) on exit and on Ctrl-C. */
export function cleanUpOnExit(cleanup: () => void): () => void {
  const killAll = () => {
    for (const child of running) child.signal('SIGKILL');
    try {
      cleanup();
    } catch {
      // Already stopped (a Ctrl-C reaches the cluster too): nothing is left to clean.
    }
  };
  const interrupted = () => {
    process.stderr.write('fleet bench: interrupted; stopping the world, the workers and the cluster\n');
    killAll();
    process.exit(130);
  };
  process.once('exit', killAll);
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  return () => {
    process.off('exit', killAll);
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
  };
}

/**
 * A process's CPU and memory as /proc says, read again on every ask while it runs and every `everyMs` in between, so
 * that once it has exited (and /proc no longer knows its pid) what it last used is still there to read.
 */
export class ProcessUsage {
  private last = { cpuMs: 0, rssMb: 0 };
  private readonly timer: NodeJS.Timeout;

  constructor(
    readonly pid: number,
    everyMs = 500,
  ) {
    this.read();
    this.timer = setInterval(() => this.read(), everyMs).unref();
  }

  /** The CPU it has used so far, user and system (ms). */
  cpuMs(): number {
    return this.read().cpuMs;
  }

  /** The memory it holds now (resident, MB), or held last. */
  rssMb(): number {
    return this.read().rssMb;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private read(): { cpuMs: number; rssMb: number } {
    try {
      this.last = { cpuMs: cpuMsOf(this.pid), rssMb: rssMbOf(this.pid) };
    } catch (error) {
      // Gone: its pid has left /proc (ENOENT) or was reaped while being read (ESRCH). Its last reading stands.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ESRCH') throw error;
      this.stop();
    }
    return this.last;
  }
}

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

/** The CPU a process has used so far, user and system (ms), from /proc/<pid>/stat (utime, stime). */
export function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces: the fields after it start at the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND) * 1000;
}

/** The memory a process holds now (its resident set, MB), from /proc/<pid>/status (VmRSS). */
export function rssMbOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  return kb === undefined ? 0 : Number(kb) / 1024;
}
