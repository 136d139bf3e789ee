import type { Clock, TimerHandle } from '../contracts/clock.js';
import type { FailureCode } from '../contracts/failure-codes.js';
import type { BindingRegistry } from './binding-registry.js';
import type { RuntimeHooks } from './hooks.js';
import type { TreeOutcome } from './outcome.js';
import type { TreeCatalog } from './tree-catalog.js';
import type { RunContextParts } from './invocation.js';
import { TreeRun, retryableSet } from './tree-run.js';
import { defaultWatchdogs, type WatchdogDefaults } from './watchdog-spec.js';

export const DEFAULT_TICK_HZ = 20;
export const DEFAULT_ABORT_GRACE_MS = 1000;

export interface TreeRunnerOptions {
  catalog: TreeCatalog;
  bindings: BindingRegistry;
  clock: Clock;
  /** The fixed tick that drives guards; settles step the tree at once regardless. */
  tickHz?: number;
  hooks?: RuntimeHooks;
  /** How long a finished run waits for aborted actuators to settle before resolving anyway. */
  abortGraceMs?: number;
}

export interface RunOptions {
  /** Aborting it ends the run; a FailureCode reason (e.g. "preempted") becomes the outcome's code. */
  signal?: AbortSignal;
  /** Step-level limits for kinds the tree does not declare. */
  watchdogDefaults?: Partial<WatchdogDefaults>;
  /** The capability's expectedDurationMs; maxStateDuration defaults to twice it. */
  expectedDurationMs?: number;
  /** Codes `while(retryable)` lets through; default: each code's own retryable flag. */
  retryableCodes?: readonly FailureCode[];
  /** Seeds backoff jitter and random node choices; default: the run id. */
  seed?: number;
  /** Per-run observers, in addition to the runner's. */
  hooks?: RuntimeHooks;
}

export interface TreeRunner {
  /** Runs a catalogued tree to its end; no actuator command of the run is live once this resolves. */
  run<Args>(treeName: string, parts: RunContextParts<Args>, options?: RunOptions): Promise<TreeOutcome>;
  /**
   * The fixed tick: steps every active run that can have changed (runs waiting only on leaves that settle are left to
   * their settles).
   */
  tick(): void;
  activeRuns(): number;
  /** Aborts every active run (code "aborted") and waits for them to end. */
  shutdown(detail?: string): Promise<void>;
}

function mergeHooks(a: RuntimeHooks | undefined, b: RuntimeHooks | undefined): RuntimeHooks {
  if (!a) return b ?? {};
  if (!b) return a;
  const merged: RuntimeHooks = {};
  for (const key of ['nodeStates', 'watchdogTrip', 'actuate', 'progress', 'runEnd'] as const) {
    const first = a[key];
    const second = b[key];
    if (first && second) merged[key] = ((event: never) => (first(event), second(event))) as never;
    else if (first ?? second) merged[key] = (first ?? second) as never;
  }
  return merged;
}

/** The executor's entry to the behavior-tree runtime. */
export function createTreeRunner(options: TreeRunnerOptions): TreeRunner {
  const { catalog, bindings, clock } = options;
  const tickMs = 1000 / (options.tickHz ?? DEFAULT_TICK_HZ);
  const active = new Set<TreeRun>();
  let nextId = 1;
  let ticker: TimerHandle | undefined;

  const tick = (): void => {
    for (const run of active) run.tick();
  };
  const onTick = (): void => {
    ticker = undefined;
    tick();
    if (active.size > 0) ticker = clock.setTimeout(onTick, tickMs);
  };

  return {
    run(treeName, parts, runOptions = {}) {
      const tree = catalog.get(treeName);
      if (!tree) {
        return Promise.resolve({
          ok: false,
          code: 'not_runnable',
          detail: `no tree named "${treeName}" is loaded (trees: ${catalog.names().join(', ') || 'none'})`,
        });
      }
      const id = nextId++;
      let run: TreeRun;
      try {
        run = new TreeRun({
          id,
          tree,
          parts,
          bindings,
          clock,
          hooks: mergeHooks(options.hooks, runOptions.hooks),
          watchdogDefaults: defaultWatchdogs(runOptions.expectedDurationMs, runOptions.watchdogDefaults),
          retryableCodes: retryableSet(runOptions.retryableCodes),
          seed: runOptions.seed ?? id,
          abortGraceMs: options.abortGraceMs ?? DEFAULT_ABORT_GRACE_MS,
          signal: runOptions.signal,
          onFinished: (finished) => {
            active.delete(finished);
            if (active.size === 0 && ticker) {
              clock.clearTimeout(ticker);
              ticker = undefined;
            }
          },
        });
      } catch (error) {
        return Promise.resolve({
          ok: false,
          code: 'runner_error',
          detail: `${treeName}: the tree could not be built: ${(error as Error).message}`,
        });
      }
      active.add(run);
      if (!ticker) ticker = clock.setTimeout(onTick, tickMs);
      run.start();
      return run.outcome;
    },
    tick,
    activeRuns: () => active.size,
    async shutdown(detail = 'the runtime is shutting down') {
      const runs = [...active];
      for (const run of runs) run.cancel('aborted', `${run.tree.name}: ${detail}`);
      await Promise.all(runs.map((run) => run.outcome));
    },
  };
}
