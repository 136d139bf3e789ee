import type { Expectation } from '../contracts/expectation.js';
import type { FailureCode } from '../contracts/failure-codes.js';
import type { Observation, Vec3Like } from '../contracts/world.js';
import type { RecoveryDecision } from '../recovery/strategy.js';
import type { StepOutcome } from './events.js';
import { stepTimeoutMs } from './policy.js';
import { ProgressThrottle } from './progress-throttle.js';
import { targetOf } from './repair-fit.js';
import type { RunScope } from './scope.js';
import type { StepInput } from './step-input.js';
import { callDurationFor, type Contained } from './user-code.js';

export type Failure = Extract<StepOutcome, { ok: false }>;

export function fail(code: FailureCode, detail: string, unmet?: string[]): Failure {
  return { ok: false, code, detail, ...(unmet ? { unmet } : {}) };
}

/** The step's effects as asked, fixed once from the world at dispatch. */
export interface Asked {
  pre: Observation;
  expectations: Expectation[];
}

/**
 * What a phase of a step decides: go on to the next phase, begin the cycle again
 * (the guard re-checked) after sub-goals, a preemption, a local retry or a
 * repair, or end the step with an outcome.
 */
export type Next =
  | { readonly then: 'go_on' }
  | { readonly then: 'again'; readonly after: 'subgoals' | 'preemption' | 'retry' | 'repair' }
  | { readonly then: 'finish'; readonly outcome: StepOutcome };

export const GO_ON: Next = { then: 'go_on' };
export const again = (after: Extract<Next, { then: 'again' }>['after']): Next => ({ then: 'again', after });
export const finish = (outcome: StepOutcome): Next => ({ then: 'finish', outcome });

/** Everything one step keeps across its attempts: its counters, its deadline and the decisions made so far. */
export interface StepState {
  readonly scope: RunScope;
  readonly input: StepInput;
  /** The fields every event of this step carries. */
  readonly base: { readonly planId: string; readonly stepId: string; readonly verb: string };
  readonly startedAt: number;
  /** The step's own expected duration, or the capability's for its arguments (`durationFor`, which may misbehave). */
  readonly duration: Contained<number>;
  readonly expectedMs: number;
  /** Where the step is heading, when its arguments name a point: progress is measured toward it. */
  readonly target: Vec3Like | undefined;
  /** Moves by the time sub-goals and preemptions took, never past the parent's cap. */
  deadlineAt: number;
  attempts: number;
  /** The executor's own local retries (its budget, `policy.maxLocalRetries`) and recovery rungs. */
  retries: number;
  repairs: number;
  /** Of `repairs`, the safety takeovers that ran a response (a fight, a flight, a shelter, a meal): each a repair. */
  defences: number;
  /** The tree's own retries and unstuck moves inside attempts (tree-recoveries.ts): in the record, not the budget. */
  treeRetries: number;
  treeRepairs: number;
  /** How often the safety monitor took the step over (see `policy.safety.maxPreemptionsPerStep`). */
  safetyPreemptions: number;
  /** A1 in docs/contract.md: from dispatch to the first actuator command anywhere below the step, sub-goals too. */
  ttfaMs: number | null;
  /** How often the guard failed each way (reason and missing precondition), for FM-02. */
  readonly guardFailures: Map<string, number>;
  /** Set at the first observation and never changed: every attempt is judged against it. */
  asked: Asked | null;
  /** The recovery ladder's open incident for this step, if a failure climbed it. */
  decision: RecoveryDecision | null;
  /** The rung of the ladder carried out last. */
  lastRung: string | null;
  /** The idempotency key this step claimed: it completes it when verified, releases it when it fails. */
  claimedKey: string | null;
  /** How many deaths the run had seen when the step started: one after that ends it `died` (deaths.ts). */
  readonly deathsAtStart: number;
  /** The step's progress reports, passed on as `step.progress` at the policy's rate. */
  readonly progress: ProgressThrottle;
}

export function openStep(scope: RunScope, input: StepInput): StepState {
  const { step, spec, args } = input;
  const startedAt = scope.clock.now();
  const duration =
    step.expectedDurationMs !== undefined
      ? { ok: true as const, value: step.expectedDurationMs }
      : callDurationFor(spec, args);
  const expectedMs = duration.ok ? duration.value : spec.expectedDurationMs;
  const base = { planId: scope.planId, stepId: step.stepId, verb: spec.name };
  const { clock, policy } = scope;
  return {
    scope,
    input,
    base,
    startedAt,
    duration,
    expectedMs,
    target: targetOf(args),
    deadlineAt: Math.min(input.deadlineCap ?? Infinity, startedAt + stepTimeoutMs(scope.policy, expectedMs)),
    attempts: 0,
    retries: 0,
    repairs: 0,
    defences: 0,
    treeRetries: 0,
    treeRepairs: 0,
    safetyPreemptions: 0,
    ttfaMs: null,
    guardFailures: new Map(),
    asked: null,
    decision: null,
    lastRung: null,
    claimedKey: null,
    deathsAtStart: scope.deaths.count,
    progress: new ProgressThrottle(
      clock,
      (report) => scope.emit({ type: 'step.progress', at: clock.now(), ...base, ...report }),
      policy.progressPerSecond,
    ),
  };
}

/** Notes the step's first actuator command (A1), once, and tells its parent, whose first action it is too. */
export function noteFirstAction(state: StepState, command: string): void {
  if (state.ttfaMs !== null) return;
  const { scope, input, base } = state;
  state.ttfaMs = scope.clock.now() - state.startedAt;
  scope.emit({ type: 'step.firstAction', at: scope.clock.now(), ...base, ttfaMs: state.ttfaMs, command });
  input.onFirstAction?.(command);
}
