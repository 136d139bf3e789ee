import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Clock } from '../contracts/clock.js';
import { systemClock } from '../clock/index.js';
import type { ForkJob, ForkOutcome } from './fork-job.js';
import { FORK_THREAD_READY } from './fork-thread.js';
import type { CapturedView } from './view.js';

export type { ForkJob, ForkOutcome } from './fork-job.js';

export interface ForkPoolOptions {
  /** Forks at once; never more than os.availableParallelism() (the default). */
  size?: number;
  /** Real milliseconds a fork may take, loading included, before its thread is ended (`wall_budget`). */
  wallBudgetMs: number;
  /** The clock the wall budget is timed on (default the system's). */
  clock?: Clock;
  /**
   * Threads kept loaded and waiting between jobs (default 0: each fork starts a thread of its own, ended with its
   * job), at most `size`. A warm thread spares a fork the thread's start (loading the executor and trees: seconds
   * under tsx); one past its wall budget or crashed is ended and another started in its place.
   */
  warm?: number;
}

/**
 * How a worker thread loads its entry. From dist/ it is the compiled file beside this one. From the sources (vitest,
 * tsx) it is the TypeScript file, loaded through tsx's own API registered inside the thread first: a `--import tsx`
 * in the thread's execArgv registers its hooks too late on Node 20 (the entry fails with an unknown ".ts"). tsx also
 * maps `verbtree` by tsconfig's paths, as the capabilities import it.
 */
function workerScript(): { script: string | URL; eval: boolean } {
  if (!import.meta.url.endsWith('.ts')) return { script: new URL('./fork-worker.js', import.meta.url), eval: false };
  const entry = new URL('./fork-worker.ts', import.meta.url).href;
  const require = createRequire(import.meta.url);
  const tsxRoot = pathToFileURL(require.resolve('tsx/package.json'));
  const { exports } = require('tsx/package.json') as { exports: Record<string, { import: { default: string } }> };
  const tsxApi = new URL(exports['./esm/api']!.import.default, tsxRoot).href;
  const script = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
  return { script, eval: true };
}

function cutOff(outcome: 'wall_budget' | 'crashed', detail: string): ForkOutcome {
  return { outcome, detail, expectations: [], unmet: [], damage: 0, simulatedMs: 0, unknownTouches: 0 };
}

/** A thread that loaded its entry and waits for jobs: it posts FORK_THREAD_READY once, then an outcome per job. */
interface ForkThread {
  worker: Worker;
  ready: Promise<void>;
}

/**
 * Runs forks off the main event loop in worker threads, never more at once than `size`; the rest wait in order. A
 * thread runs one job at a time; `warm` of them are kept between jobs, the others ended when their job ends or their
 * wall budget runs out.
 */
export class ForkPool {
  readonly size: number;
  private readonly warm: number;
  private running = 0;
  /** The most forks that ran at once. */
  peak = 0;
  /** Threads started so far (a warm pool starts fewer than it runs jobs). */
  started = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly idle: ForkThread[] = [];
  private readonly clock: Clock;
  private closed = false;

  constructor(private readonly options: ForkPoolOptions) {
    this.size = Math.max(1, Math.min(options.size ?? availableParallelism(), availableParallelism()));
    this.warm = Math.max(0, Math.min(options.warm ?? 0, this.size));
    this.clock = options.clock ?? systemClock;
  }

  /** Starts the warm threads (if not already waiting) and resolves once they have loaded. */
  async warmUp(): Promise<void> {
    while (this.idle.length < this.warm) this.keep(this.spawn());
    await Promise.all(this.idle.map((thread) => thread.ready.catch(() => undefined)));
  }

  /** Ends the waiting threads; jobs running now finish, and their threads end with them. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.idle.splice(0).map((thread) => thread.worker.terminate()));
  }

  /** Runs `job` on a fork of `view`, within `wallBudgetMs` of real time (default the pool's). */
  async run(view: CapturedView, job: ForkJob, wallBudgetMs = this.options.wallBudgetMs): Promise<ForkOutcome> {
    await this.slot();
    try {
      return await this.runOn(this.idle.shift() ?? this.spawn(), view, job, wallBudgetMs);
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  private slot(): Promise<void> {
    if (this.running < this.size) {
      this.take();
      return Promise.resolve();
    }
    return new Promise((resolve) =>
      this.waiting.push(() => {
        this.take();
        resolve();
      }),
    );
  }

  private take(): void {
    this.running++;
    this.peak = Math.max(this.peak, this.running);
  }

  private spawn(): ForkThread {
    const { script, eval: isCode } = workerScript();
    const worker = new Worker(script, { eval: isCode });
    this.started++;
    const ready = new Promise<void>((resolve, reject) => {
      worker.on('message', (message) => message === FORK_THREAD_READY && resolve());
      worker.once('error', reject);
      worker.once('exit', () => {
        reject(new Error('the fork thread ended'));
        // A waiting thread that died is no longer waiting.
        const index = this.idle.findIndex((thread) => thread.worker === worker);
        if (index >= 0) this.idle.splice(index, 1);
      });
    });
    ready.catch(() => undefined);
    return { worker, ready };
  }

  /**
   * A thread waiting for a job does not keep the process alive; one still loading does, or a process awaiting
   * warmUp() would end with nothing left to wait on.
   */
  private keep(thread: ForkThread): void {
    this.idle.push(thread);
    void thread.ready.then(
      () => this.idle.includes(thread) && thread.worker.unref(),
      () => undefined,
    );
  }

  private runOn(thread: ForkThread, view: CapturedView, job: ForkJob, wallBudgetMs: number): Promise<ForkOutcome> {
    const { worker } = thread;
    worker.ref();
    return new Promise<ForkOutcome>((resolve) => {
      const timer = this.clock.setTimeout(() => {
        settle(cutOff('wall_budget', `the fork took more than ${wallBudgetMs} ms of wall time`), false);
      }, wallBudgetMs);
      const onMessage = (message: unknown) => {
        if (message !== FORK_THREAD_READY) settle(message as ForkOutcome, true);
      };
      const onError = (error: Error) => settle(cutOff('crashed', error.message), false);
      const onExit = (code: number) =>
        settle(cutOff('crashed', `the fork's thread exited (${code}) without an outcome`), false);
      const settle = (outcome: ForkOutcome, reusable: boolean) => {
        this.clock.clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        this.release(thread, reusable);
        resolve(outcome);
      };
      worker.on('message', onMessage);
      worker.once('error', onError);
      worker.once('exit', onExit);
      worker.postMessage({ view, job });
    });
  }

  /** Keeps a thread that finished its job while the pool wants it warm; ends the others and starts a warm one anew. */
  private release(thread: ForkThread, reusable: boolean): void {
    if (reusable && !this.closed && this.idle.length < this.warm) return this.keep(thread);
    void thread.worker.terminate();
    if (!this.closed && this.idle.length < this.warm) this.keep(this.spawn());
  }
}

/** A fork may take this long in wall time, loading its thread included, unless its pool says otherwise. */
export const DEFAULT_FORK_WALL_MS = 30_000;
let shared: ForkPool | undefined;

/**
 * Runs one step on a fork of `view` in a worker thread (see runForkJob) and returns its outcome; `pool` defaults to
 * one shared pool of os.availableParallelism() threads, each fork bounded by DEFAULT_FORK_WALL_MS.
 */
export function runInFork(view: CapturedView, job: ForkJob, pool: ForkPool = sharedPool()): Promise<ForkOutcome> {
  return pool.run(view, job);
}

function sharedPool(): ForkPool {
  return (shared ??= new ForkPool({ wallBudgetMs: DEFAULT_FORK_WALL_MS }));
}
