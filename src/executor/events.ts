import type { FailureCode } from '../contracts/failure-codes.js';
import type { PlanStep } from '../contracts/plan-step.js';
import type { Expectation } from '../contracts/expectation.js';
import type { Observation, Vec3Like } from '../contracts/world.js';
import type { ValidationIssue } from '../validate/issue.js';
import type { IdempotencyState } from './idempotency.js';

/** How a step ended: verified success, or exactly one failure code with its evidence. */
export type StepOutcome =
  { ok: true; deduplicated?: boolean } | { ok: false; code: FailureCode; detail: string; unmet?: string[] };

/** What every executor event carries: when it happened and the plan it belongs to. */
export interface Base {
  at: number;
  planId: string;
}

/** What every event about one step carries besides {@link Base}: the step and its verb. */
export interface StepBase extends Base {
  stepId: string;
  verb: string;
}

/** The step that holds an idempotency key, as a refusal or a deduplication names it. */
export interface KeyHolder {
  planId: string;
  stepId: string;
  verb: string;
  args: unknown;
}

/** A validated step as the executor will run it: the version resolved and the arguments as parsed. */
export interface AcceptedStep {
  stepId: string;
  type: string;
  version: string;
  args: unknown;
  idempotencyKey?: string;
}

export type ExecutorEvent =
  | (Base & {
      type: 'plan.accepted';
      intentId: string;
      steps: number;
      resolved: AcceptedStep[];
      warnings: ValidationIssue[];
    })
  | (Base & { type: 'plan.rejected'; code: FailureCode; issues: ValidationIssue[] })
  | (StepBase & {
      type: 'step.started';
      version: string;
      attempt: number;
      deadlineAt: number;
      args: unknown;
      idempotencyKey?: string;
      parentStepId?: string;
    })
  /**
   * `pre`: the world at dispatch, for a capability that judges its effects with an acceptance function of its own
   * (which reads it): journaled, so that a re-check after a server restart runs that acceptance again.
   */
  | (StepBase & { type: 'step.expects'; expectations: Expectation[]; pre?: Observation })
  | (StepBase & { type: 'attempt.started'; attempt: number })
  | (StepBase & { type: 'step.firstAction'; ttfaMs: number; command: string })
  /** `inTree`: the capability's tree retried a failed command, or made an unstuck move, inside attempt `attempt`. */
  | (StepBase & {
      type: 'step.retry';
      attempt: number;
      delayMs: number;
      code: FailureCode;
      detail: string;
      inTree?: true;
    })
  | (StepBase & { type: 'step.repair'; strategy: string; code: FailureCode; detail: string; inTree?: true })
  | (StepBase & {
      type: 'step.subgoal';
      reason: string;
      missing: { predicate: string; detail: Record<string, unknown> };
      subgoalStepIds: string[];
    })
  | (StepBase & { type: 'step.preempted'; by: string; reason: string })
  | (StepBase & { type: 'step.resumed'; after: string; deadlineAt: number })
  | (StepBase & {
      /** The idempotency check ended the step before it started (no `step.started` precedes this): it fails. */
      type: 'step.refused';
      /** `duplicate_dispatch`, or the code of the observation that could not check a completed key's effects. */
      code: FailureCode;
      detail: string;
      idempotencyKey: string;
      /** The holder's hold on the key. */
      state: IdempotencyState;
      holder: KeyHolder;
      args: unknown;
      parentStepId?: string;
    })
  | (StepBase & {
      /** The very same step (verb and arguments) completed this key, and its expectations hold now: done, not started. */
      type: 'step.deduplicated';
      idempotencyKey: string;
      holder: KeyHolder;
      /** The holder's expectations, checked against the live world now. */
      expectations: Expectation[];
      args: unknown;
      parentStepId?: string;
    })
  | (StepBase & {
      /** Where the running step stands (blocks dug of N, items picked up, distance left), at most a few a second. */
      type: 'step.progress';
      done: number;
      total?: number;
      /** What `done` and `total` count, e.g. "oak_log", "blocks placed", "blocks walked". */
      unit: string;
      /** A short line the capability gave, e.g. "12 blocks left". */
      detail?: string;
    })
  | (StepBase & { type: 'step.stuck'; detector: string; code: FailureCode; reason: string; position?: Vec3Like })
  | (StepBase & { type: 'step.warning'; message: string })
  | (StepBase & {
      type: 'step.ended';
      outcome: StepOutcome;
      durationMs: number;
      attempts: number;
      ttfaMs: number | null;
    })
  | (Base & {
      type: 'plan.escalated';
      rung: number;
      planner: string;
      code: FailureCode;
      failedStepId: string;
      loop: boolean;
    })
  | (Base & { type: 'planner.loop'; similarity: number; nudge: string })
  | (Base & { type: 'safety.emergency'; signal: string; detail: string; response: string })
  | (Base & { type: 'agent.state'; from: string; to: string; reason: string })
  | (Base & {
      type: 'incident';
      kind: 'escalation_exhausted' | 'zombie' | 'planner.loop' | 'death';
      detail: string;
      stepId?: string;
    })
  | (Base & { type: 'plan.paused'; reason: string })
  | (Base & { type: 'plan.resumed'; cancelled: boolean })
  | (Base & { type: 'plan.cancelled'; reason: string })
  | (Base & { type: 'plan.replaced'; afterStepId: string | null; steps: PlanStep[] })
  | (Base & { type: 'plan.ended'; result: PlanResult });

export type ExecutorEventType = ExecutorEvent['type'];

export type EventOf<T extends ExecutorEventType> = Extract<ExecutorEvent, { type: T }>;

export interface StepRecord {
  step: PlanStep;
  outcome: StepOutcome;
  attempts: number;
  ttfaMs: number | null;
  durationMs: number;
  retries: number;
  repairs: number;
  /** Of `repairs`, the safety takeovers of this step that ran a response: each a `step.repair` "defence: …". */
  defences: number;
  /** Set on a sub-goal, an unstuck move or a safety response: the step it ran for. */
  parentStepId?: string;
}

/** The final word on a plan: every step it dispatched has exactly one outcome here. */
export interface PlanResult {
  planId: string;
  ok: boolean;
  code?: FailureCode;
  detail?: string;
  /**
   * Every step the run dispatched, flat, in the order they ended: the plan's own steps and every
   * sub-goal, unstuck move and safety response, each of those with the `parentStepId` it ran for.
   */
  steps: StepRecord[];
  escalations: number;
  repairs: number;
  /** Of `repairs`, the defences: safety takeovers of a step (a fight, a flight, a shelter, a meal). */
  defences: number;
  retries: number;
  durationMs: number;
}

/** The result of a run that ended before any step: rejected at the door, or stopped by a bug in the executor. */
export function failedRun(planId: string, code: FailureCode, detail: string): PlanResult {
  return { ...stepless(planId, false), code, detail };
}

/** The result of a run that dispatched no step (a resume that found every step already settled, or a failure). */
export function stepless(planId: string, ok: boolean): PlanResult {
  return { planId, ok, steps: [], escalations: 0, repairs: 0, defences: 0, retries: 0, durationMs: 0 };
}
