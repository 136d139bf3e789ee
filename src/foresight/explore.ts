import { availableParallelism } from 'node:os';
import type { Clock } from '../contracts/clock.js';
import { systemClock } from '../clock/index.js';
import {
  scoreBranch,
  type BranchCandidate,
  type BranchExplorer,
  type BranchRequest,
  type BranchTrial,
  type ScoredBranch,
} from '../recovery/branches.js';
import { ForkPool, type ForkJob, type ForkOutcome } from './fork-pool.js';
import { captureView, type CapturedView, type ViewBounds } from './view.js';

/** Runs one job on a fork of the view within `wallBudgetMs` of real time (a worker thread, by default). */
export type ForkRunner = (view: CapturedView, job: ForkJob, wallBudgetMs: number) => Promise<ForkOutcome>;

export interface ForkExplorerOptions {
  /** How much of the world around the bot the forks copy (default radius 16, height 8). */
  bounds?: ViewBounds;
  /** The clock the total budget is timed on (default the system's). */
  clock?: Clock;
  /** Where the forks run; default `pool`, or without one a worker thread started for each fork. */
  runFork?: ForkRunner;
  /** A pool whose `warm` threads, started and loaded beforehand, spare each fork its thread's start. */
  pool?: ForkPool;
}

const DEFAULT_BOUNDS: ViewBounds = { radius: 16, height: 8 };

const inWorkerThread: ForkRunner = (view, job, wallBudgetMs) => new ForkPool({ size: 1, wallBudgetMs }).run(view, job);

/**
 * Branch exploration on forks: captures what the bot sees once, then runs each candidate on a fork of it (its steps,
 * then the stuck step when the candidate says so), never more at once than the machine has cores nor than the
 * candidates, each within the configured simulated and wall budgets. A candidate that would start after the total
 * budget is spent is `skipped`. The real world is only read, once, by captureView.
 */
export function forkExplorer(options: ForkExplorerOptions = {}): BranchExplorer {
  const clock = options.clock ?? systemClock;
  const { pool } = options;
  const runFork: ForkRunner =
    options.runFork ?? (pool ? (view, job, wallBudgetMs) => pool.run(view, job, wallBudgetMs) : inWorkerThread);
  return {
    async explore(request: BranchRequest): Promise<ScoredBranch[]> {
      const view = await captureView(request.world, request.view ?? options.bounds ?? DEFAULT_BOUNDS);
      const { config, candidates } = request;
      const deadline = clock.now() + config.totalBudgetMs;
      const trials: BranchTrial[] = new Array<BranchTrial>(candidates.length);
      let next = 0;
      const lane = async (): Promise<void> => {
        for (let index = next++; index < candidates.length; index = next++) {
          const left = deadline - clock.now();
          trials[index] =
            left <= 0
              ? skipped(`the stage's total budget of ${config.totalBudgetMs} ms was spent`)
              : trialOf(await runFork(view, jobFor(candidates[index]!, request), Math.min(config.wallBudgetMs, left)));
        }
      };
      const lanes = Math.max(1, Math.min(candidates.length, availableParallelism()));
      await Promise.all(Array.from({ length: lanes }, lane));
      return candidates.map((candidate, index) => ({
        candidate,
        trial: trials[index]!,
        score: scoreBranch(trials[index]!, config),
      }));
    },
  };
}

/** The candidate as one fork job: its steps, then the stuck step when it says so, judged by the step's expectations. */
export function jobFor(candidate: BranchCandidate, request: BranchRequest): ForkJob {
  const steps = candidate.thenStep ? [...candidate.steps, request.step] : candidate.steps;
  const last = steps[steps.length - 1] ?? request.step;
  return {
    verb: last.verb,
    args: last.args,
    prelude: steps.slice(0, -1),
    judgeBy: [...request.judgeBy],
    simBudgetMs: request.config.simBudgetMs,
  };
}

function trialOf(outcome: ForkOutcome): BranchTrial {
  return {
    outcome: outcome.outcome,
    progress: outcome.progress ?? 0,
    simulatedMs: outcome.simulatedMs,
    damage: outcome.damage,
    spent: outcome.spent ?? 0,
    unknownTouches: outcome.unknownTouches,
    ...(outcome.outcome === 'ok' ? {} : { detail: brief([outcome.code, outcome.detail].filter(Boolean).join(': ')) }),
  };
}

const DETAIL_CHARS = 160;
const brief = (text: string) => (text.length > DETAIL_CHARS ? `${text.slice(0, DETAIL_CHARS - 1)}…` : text);

function skipped(detail: string): BranchTrial {
  return { outcome: 'skipped', progress: 0, simulatedMs: 0, damage: 0, spent: 0, unknownTouches: 0, detail };
}
