import { runForkJob } from '../../src/foresight/fork-job.js';
import { forkExplorer } from '../../src/foresight/index.js';
import type { BranchExplorer, BranchRequest, ScoredBranch } from '../../src/recovery/branches.js';
import type { ExecutorEvent, PlanResult } from '../../src/executor/events.js';
import type { ManualClock } from '../../src/clock/index.js';
import type { Harness } from './executor.js';

/**
 * An explorer whose forks run in this thread (runForkJob, each on its own virtual clock), that says while it is busy:
 * the driver below stops the run's clock then, as a real bot's world would not wait for forks either, but a test on
 * virtual time must not let the step's timers race the forks' real time.
 */
export function watchedExplorer(
  inner: BranchExplorer = forkExplorer({ runFork: (view, job) => runForkJob(view, job) }),
) {
  const watch = {
    pending: null as Promise<ScoredBranch[]> | null,
    requests: [] as BranchRequest[],
    results: [] as ScoredBranch[][],
    explorer: {
      explore(request: BranchRequest): Promise<ScoredBranch[]> {
        watch.requests.push(request);
        const exploring = inner.explore(request).then((scored) => (watch.results.push(scored), scored));
        watch.pending = exploring;
        void exploring.finally(() => (watch.pending = null)).catch(() => undefined);
        return exploring;
      },
    } satisfies BranchExplorer,
  };
  return watch;
}

/** Runs the plan on virtual time, the clock held still while the explorer works. */
export function runHeldForForks(
  h: Harness,
  watch: ReturnType<typeof watchedExplorer>,
  plan: unknown,
  maxMs = 600_000,
): Promise<PlanResult> {
  return awaitHeldForForks(h.clock, watch, h.assembly.executor.run(plan as never).result, maxMs);
}

/** Waits for a run's result on virtual time, the clock held still while the explorer works. */
export async function awaitHeldForForks(
  clock: ManualClock,
  watch: ReturnType<typeof watchedExplorer>,
  running: Promise<PlanResult>,
  maxMs = 600_000,
): Promise<PlanResult> {
  let result: PlanResult | undefined;
  void running.then((r) => (result = r));
  const until = clock.now() + maxMs;
  while (result === undefined && clock.now() < until) {
    await clock.runUntil(() => result !== undefined || watch.pending !== null, until - clock.now());
    if (watch.pending) await watch.pending.catch(() => undefined);
    else if (result === undefined) break;
  }
  if (!result) throw new Error(`the plan did not end within ${maxMs} ms of virtual time`);
  return result;
}

export const ofType = <T extends ExecutorEvent['type']>(events: ExecutorEvent[], type: T) =>
  events.filter((e): e is Extract<ExecutorEvent, { type: T }> => e.type === type);
