import { FAILURE_CODES, type FailureCode } from '../contracts/failure-codes.js';
import type { ExecutorEvent, PlanResult } from '../executor/events.js';
import type { PlanProvenance } from '../journal/queries.js';
import type { StepStatus } from '../journal/rows.js';

/** Where a run stands: waiting behind another run of its bot, under way, held, or how it ended. */
export type RunStatus =
  'queued' | 'running' | 'paused' | 'succeeded' | 'failed' | 'cancelled' | 'rejected' | 'interrupted';

export const ENDED_STATUSES: readonly RunStatus[] = ['succeeded', 'failed', 'cancelled', 'rejected', 'interrupted'];

/** One step of a run: the plan's own, or (with `parentStepId`) a sub-goal, unstuck move or safety response. */
export interface StepView {
  stepId: string;
  verb: string;
  status: StepStatus | 'running';
  parentStepId?: string;
  /** How it failed, when it did. */
  code?: string;
  detail?: string;
}

/** Why a run failed: the code, whether trying again may help, the step, and what was expected and not met. */
export interface RunFailure {
  code: string;
  retryable: boolean;
  detail: string;
  /** The plan's step that failed; null when the run failed before or between steps. */
  stepId: string | null;
  /** The expectations acceptance found unmet, as text. */
  unmet: string[];
  /** The failed step's effects as absolute expectations (its `step.expects`), as journaled. */
  expects: unknown[];
  /** The failed step's last events (retries, stuck detections, repairs, its end); empty when read from the journal. */
  evidence: ExecutorEvent[];
}

/** A run as getRun shows it. */
export interface RunView {
  planId: string;
  /** The bot that runs it; from the journal, the fleet bot it was queued for (null for a plan a process ran directly). */
  bot: string | null;
  /** `process`: a run this process started (live, or ended recently); `journal`: read back from the journal. */
  source: 'process' | 'journal';
  status: RunStatus;
  /** Its steps in plan order, each nested step after the ones before it started; at most `MAX_VIEW_STEPS`. */
  steps: StepView[];
  stepsTotal: number;
  failure: RunFailure | null;
  /** The executor's final word, when the run ended in this process. */
  result: PlanResult | null;
}

/** A view lists at most this many steps (a plan holds at most 5,000 of its own). */
export const MAX_VIEW_STEPS = 1000;

export const retryable = (code: string): boolean => FAILURE_CODES[code as FailureCode]?.retryable ?? false;

/**
 * Whether a run has ended: a fleet plan interrupted with its worker has not, since the bot's next holder resumes it.
 */
export const runHasEnded = (view: RunView): boolean =>
  ENDED_STATUSES.includes(view.status) && !(view.status === 'interrupted' && view.source === 'journal' && view.bot);

const JOURNAL_STATUSES = new Set<string>(['running', 'succeeded', 'failed', 'rejected', 'interrupted', 'cancelled']);

/** A run of another process, or an older one, from the journal's record of its plan. */
export function journalRunView(provenance: PlanProvenance & { stepsTotal: number }): RunView {
  const { plan, runs, steps } = provenance;
  const status = (JOURNAL_STATUSES.has(plan.status) ? plan.status : 'queued') as RunStatus;
  const lastRun = runs.at(-1);
  const failedStep = steps.filter((s) => s.step.status === 'failed' && s.step.parent_step_id === null).at(-1)?.step;
  const failure: RunFailure | null =
    lastRun && lastRun.ok === 0
      ? {
          code: lastRun.code ?? 'runner_error',
          retryable: retryable(lastRun.code ?? ''),
          detail: lastRun.detail ?? '',
          stepId: failedStep?.step_id ?? null,
          unmet: [],
          expects: failedStep?.expectations ? (JSON.parse(failedStep.expectations) as unknown[]) : [],
          evidence: [],
        }
      : plan.status === 'cancelled'
        ? cancelledBeforeItRan()
        : null;
  return {
    planId: plan.plan_id,
    bot: plan.bot ?? null,
    source: 'journal',
    status,
    steps: steps.map(({ step }) => ({
      stepId: step.step_id,
      verb: step.verb,
      status: step.status,
      ...(step.parent_step_id ? { parentStepId: step.parent_step_id } : {}),
      ...(step.outcome_code ? { code: step.outcome_code } : {}),
      ...(step.outcome_detail ? { detail: step.outcome_detail } : {}),
    })),
    stepsTotal: provenance.stepsTotal,
    failure,
    result: null,
  };
}

/** A fleet plan cancelled through the journal before any worker ran a step of it. */
const cancelledBeforeItRan = (): RunFailure => ({
  code: 'aborted',
  retryable: false,
  detail: 'cancelled before its bot ran it',
  stepId: null,
  unmet: [],
  expects: [],
  evidence: [],
});
