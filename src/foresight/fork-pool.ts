import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Clock } from '../contracts/clock.js';
import { systemClock } from '../clock/index.js';
import type { ForkJob, ForkOutcome } from './fork-job.js';
import type { CapturedView } from './view.js';

export type { ForkJob, ForkOutcome } from './fork-job.js';

export interface ForkPoolOptions {
  /** Forks at once; never more than os.availableParallelism() (the default). */
  size?: number;
  /** Real milliseconds a fork may take, loading included, before its thread is ended (`wall_budget`). */
  wallBudgetMs: number;
  /** The clock the wall budget is timed on (default the system's). */
  clock?: Clock;
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

/**
 * Runs forks off the main event loop, each in a worker thread of its own (ended when its job ends or its wall
 * budget runs out), never more at once than `size`; the rest wait in order.
 */
export class ForkPool {
  readonly size: number;
  private running = 0;
  /** The most forks that ran at once. */
  peak = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly clock: Clock;

  constructor(private readonly options: ForkPoolOptions) {
    this.size = Math.max(1, Math.min(options.size ?? availableParallelism(), availableParallelism()));
    this.clock = options.clock ?? systemClock;
  }

  async run(view: CapturedView, job: ForkJob): Promise<ForkOutcome> {
    await this.slot();
    try {
      return await this.runInWorker(view, job);
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

  private runInWorker(view: CapturedView, job: ForkJob): Promise<ForkOutcome> {
    const { script, eval: isCode } = workerScript();
    const worker = new Worker(script, { workerData: { view, job }, eval: isCode });
    return new Promise<ForkOutcome>((resolve) => {
      const timer = this.clock.setTimeout(() => {
        settle(cutOff('wall_budget', `the fork took more than ${this.options.wallBudgetMs} ms of wall time`));
      }, this.options.wallBudgetMs);
      const settle = (outcome: ForkOutcome) => {
        this.clock.clearTimeout(timer);
        worker.removeAllListeners();
        void worker.terminate();
        resolve(outcome);
      };
      worker.once('message', (outcome: ForkOutcome) => settle(outcome));
      worker.once('error', (error) => settle(cutOff('crashed', error.message)));
      worker.once('exit', (code) => settle(cutOff('crashed', `the fork's thread exited (${code}) without an outcome`)));
    });
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
