import type { Expectation } from '../contracts/expectation.js';
import { isRetryableByDefault, type FailureCode } from '../contracts/failure-codes.js';
import type { Observation } from '../contracts/world.js';
import type { AnyCapabilitySpec } from '../registry/capability-spec.js';
import { dispatchQuery, verdictQuery } from '../registry/effects.js';
import { backoffDelayMs } from '../recovery/backoff.js';
import type { RecoveryDecision } from '../recovery/strategy.js';
import type { StepOutcome, StepRecord } from './events.js';
import { observeWithin } from './observe.js';
import { stepTimeoutMs } from './policy.js';
import { moveAgent, type RunScope, sleep } from './scope.js';
import type { StepInput } from './step-input.js';
import { runSubgoals } from './subgoals.js';
import { applyDecision } from './apply-decision.js';
import { isRepairable, openIncident, recoveryContext } from './repair.js';
import { BODY_CODES, distanceTo, hasFreeNeighbour, targetOf } from './repair-fit.js';
import { type SupervisedOutcome, superviseAttempt } from './supervise.js';
import { callDurationFor, callExpect, callGuard, callJudge } from './user-code.js';

export type { StepInput } from './step-input.js';

type Failure = Extract<StepOutcome, { ok: false }>;

function fail(code: FailureCode, detail: string, unmet?: string[]): Failure {
  return { ok: false, code, detail, ...(unmet ? { unmet } : {}) };
}

function isRetryable(spec: AnyCapabilitySpec, code: FailureCode): boolean {
  return spec.retryableCodes.length > 0 ? spec.retryableCodes.includes(code) : isRetryableByDefault(code);
}

/** The step's effects as asked, fixed once from the world at dispatch. */
interface Asked {
  pre: Observation;
  expectations: Expectation[];
}

/**
 * One plan step from dispatch to exactly one `step.ended`: idempotency, guard
 * (with sub-goals for missing preconditions), supervised attempts with local
 * retries and backoff, safety preemption and resumption, and acceptance. The
 * step's expectations are derived once, from the world at dispatch and the
 * arguments as asked; every attempt is judged against them and nothing else.
 */
export async function executeStep(scope: RunScope, input: StepInput): Promise<StepRecord> {
  const { step, spec, args } = input;
  const { clock, policy } = scope;
  const startedAt = clock.now();
  const duration =
    step.expectedDurationMs !== undefined
      ? { ok: true as const, value: step.expectedDurationMs }
      : callDurationFor(spec, args);
  const expectedMs = duration.ok ? duration.value : spec.expectedDurationMs;
  let deadlineAt = Math.min(input.deadlineCap ?? Infinity, startedAt + stepTimeoutMs(policy, expectedMs));
  const base = { planId: scope.planId, stepId: step.stepId, verb: spec.name };
  let attempts = 0;
  let retries = 0;
  let repairs = 0;
  let ttfaMs: number | null = null;

  const finish = (outcome: StepOutcome): StepRecord => {
    const durationMs = clock.now() - startedAt;
    if (step.idempotencyKey && outcome.ok && !outcome.deduplicated) scope.idempotency.complete(step.idempotencyKey);
    else if (step.idempotencyKey && !outcome.ok && outcome.code !== 'duplicate_dispatch')
      scope.idempotency.release(step.idempotencyKey);
    if (!(outcome.ok && outcome.deduplicated))
      scope.metrics.recordStep(spec.name, clock.now(), durationMs, ttfaMs, outcome.ok ? undefined : outcome);
    scope.emit({ type: 'step.ended', at: clock.now(), ...base, outcome, durationMs, attempts, ttfaMs });
    const record: StepRecord = {
      step,
      outcome,
      attempts,
      ttfaMs,
      durationMs,
      retries,
      repairs,
      ...(input.parentStepId ? { parentStepId: input.parentStepId } : {}),
    };
    scope.dispatched.push(record);
    return record;
  };

  scope.emit({
    type: 'step.started',
    at: startedAt,
    ...base,
    version: spec.version,
    attempt: 1,
    deadlineAt,
    args,
    ...(step.idempotencyKey ? { idempotencyKey: step.idempotencyKey } : {}),
    ...(input.parentStepId ? { parentStepId: input.parentStepId } : {}),
  });

  if (step.idempotencyKey && !scope.idempotency.claim(step.idempotencyKey)) {
    const state = scope.idempotency.state(step.idempotencyKey)!;
    scope.emit({
      type: 'step.refused',
      at: clock.now(),
      ...base,
      code: 'duplicate_dispatch',
      idempotencyKey: step.idempotencyKey,
      state,
    });
    return finish(
      state === 'completed'
        ? { ok: true, deduplicated: true }
        : fail('duplicate_dispatch', `idempotency key "${step.idempotencyKey}" is already in flight`),
    );
  }

  if (!duration.ok) return finish(fail('runner_error', duration.detail));

  // A1 counts from this step's dispatch to the first actuator command anywhere below it, sub-goals included.
  const firstAction = (command: string) => {
    if (ttfaMs !== null) return;
    ttfaMs = clock.now() - startedAt;
    scope.emit({ type: 'step.firstAction', at: clock.now(), ...base, ttfaMs, command });
    input.onFirstAction?.(command);
  };
  const guardFailures = new Map<string, number>();
  const target = targetOf(args);
  let asked: Asked | null = null;
  let decision: RecoveryDecision | null = null;
  let lastRung: string | null = null;
  for (;;) {
    if (scope.signal.aborted) return finish(fail('aborted', 'the run was cancelled'));
    if (clock.now() >= deadlineAt)
      return finish(fail('deadline_exceeded', `step ${step.stepId} passed its deadline before its next attempt`));

    const observed = await observeWithin(scope, dispatchQuery(spec, args), 'before the attempt');
    if (!observed.ok) return finish(fail(observed.code, observed.detail));
    const pre = observed.observation;
    if (!asked) {
      const expected = callExpect(spec, pre, args);
      if (!expected.ok) return finish(fail('runner_error', expected.detail));
      asked = { pre, expectations: expected.value };
      if (asked.expectations.length > 0)
        scope.emit({ type: 'step.expects', at: clock.now(), ...base, expectations: asked.expectations });
    }
    const guarded = callGuard(spec, { world: scope.world, observation: pre }, args);
    if (!guarded.ok) return finish(fail('runner_error', guarded.detail));
    const guard = guarded.value;
    if (!guard.ok) {
      const signature = `${guard.reason}|${JSON.stringify(guard.missing ?? null)}`;
      const seen = (guardFailures.get(signature) ?? 0) + 1;
      guardFailures.set(signature, seen);
      if (seen > policy.maxSameGuardFailures) {
        return finish(
          fail('guard_failed', `the guard failed the same way ${seen} times without progress: ${guard.reason}`),
        );
      }
      if (guard.missing && spec.subgoals && input.depth < policy.maxSubgoalDepth) {
        // Sub-goals are steps with deadlines of their own (gathering the cobblestone an axe needs outlasts
        // the craft); this step's deadline moves by the time they took, as it does for a pause.
        const subgoalsFrom = clock.now();
        const satisfied = await runSubgoals(scope, { ...input, onFirstAction: firstAction }, guard, pre);
        deadlineAt = Math.min(input.deadlineCap ?? Infinity, deadlineAt + (clock.now() - subgoalsFrom));
        scope.emit({ type: 'step.resumed', at: clock.now(), ...base, after: 'its sub-goals', deadlineAt });
        if (satisfied.ok) continue;
        return finish(fail(satisfied.code ?? 'precondition_missing', `${guard.reason}; ${satisfied.detail}`));
      }
      return finish(guard.missing ? fail('precondition_missing', guard.reason) : fail('guard_failed', guard.reason));
    }

    attempts++;
    const startedFrom = { ...scope.world.position() };
    scope.emit({ type: 'attempt.started', at: clock.now(), ...base, attempt: attempts });
    const supervised: SupervisedOutcome = await superviseAttempt(scope, {
      stepId: step.stepId,
      spec,
      args,
      deadlineAt,
      preemptible: input.preemptible,
      limits: {
        ttfaMs: policy.ttfaMs,
        // A verb that waits by design (follow) is bounded by its deadline, not by the no-actuator limit.
        noActuatorMs: spec.idles ? Math.max(policy.noActuatorMs, 2 * expectedMs) : policy.noActuatorMs,
        maxStateDurationMs: 2 * expectedMs,
        expectedDurationMs: expectedMs,
      },
      onFirstAction: firstAction,
    });

    const attempt = supervised.outcome;
    const judged = attempt.ok ? await judge(scope, spec, args, asked) : { outcome: fail(attempt.code, attempt.detail) };
    // Broken acceptance code would only break again: no retry can tell whether the effects hold.
    if (judged.brokenUserCode) return finish(judged.outcome);
    const outcome: StepOutcome = judged.outcome;

    if (supervised.preemptedBy) {
      scope.emit({
        type: 'step.preempted',
        at: clock.now(),
        ...base,
        by: supervised.preemptedBy.signal,
        reason: supervised.preemptedBy.detail,
      });
      const pausedAt = clock.now();
      await supervised.preemptedBy.run();
      // The step was paused, not running: its deadline moves by the time the preempting work took.
      deadlineAt += clock.now() - pausedAt;
      moveAgent(scope, 'IDLE', `back to ${step.stepId}`);
      moveAgent(scope, 'EXECUTING', `resuming ${step.stepId}`);
      if (!outcome.ok && outcome.code === 'preempted') {
        // A preempted attempt is not a failure of the step: re-validate (the guard, next loop) and run it again.
        attempts--;
        decision = null;
        scope.emit({
          type: 'step.resumed',
          at: clock.now(),
          ...base,
          after: supervised.preemptedBy.signal,
          deadlineAt,
        });
        continue;
      }
    }

    if (outcome.ok) {
      if (retries > 0) scope.metrics.recordRetrySucceeded();
      if (decision) scope.ladder.report(decision, { resolved: true }, recoveryContext(scope, spec.name));
      scope.ladder.stepCompleted();
      return finish(outcome);
    }
    // A failure of the path or the body that left the bot no closer: the same attempt again would meet the same world.
    const progressed = madeProgress(startedFrom, scope.world.position(), target);
    const stalled = BODY_CODES.has(outcome.code) && !progressed;
    // When the body is free to move, an unstuck move that changed its place and still left it making no progress shows
    // the body was never the problem.
    if (stalled && decision && lastRung?.startsWith('unstuck') && canMove(scope)) {
      return finish({
        ...outcome,
        detail: `${outcome.detail}; the same failure with no progress after ${lastRung}: local recovery cannot change this (tried: ${scope.ladder.history.join(', ')})`,
      });
    }
    if (
      !decision &&
      !stalled &&
      isRetryable(spec, outcome.code) &&
      retries < policy.maxLocalRetries &&
      outcome.code !== 'aborted'
    ) {
      retries++;
      const delayMs = backoffDelayMs(retries, policy.backoff, scope.random);
      scope.metrics.recordRetry();
      scope.emit({
        type: 'step.retry',
        at: clock.now(),
        ...base,
        attempt: attempts + 1,
        delayMs,
        code: outcome.code,
        detail: outcome.detail,
      });
      await sleep(scope, Math.min(delayMs, Math.max(0, deadlineAt - clock.now())));
      continue;
    }
    // Only a plan's own steps climb the ladder: sub-goal and helper steps run inside a rung already.
    if (isRepairable(outcome.code) && input.parentStepId === undefined && !scope.signal.aborted) {
      const situation = { code: outcome.code, target, progressed };
      const context = recoveryContext(scope, spec.name, situation);
      decision = decision
        ? scope.ladder.report(decision, { resolved: false }, context)
        : openIncident(scope.ladder, outcome.code, outcome.detail, clock.now(), scope.world.position(), context);
      if (!decision) return finish(outcome);
      moveAgent(scope, 'RECOVERING', `${outcome.code}: ${decision.strategy}`);
      const repaired = await applyDecision(scope, { ...input, deadlineCap: deadlineAt }, decision, outcome, situation);
      if (repaired.stop) {
        moveAgent(scope, decision.nextState === 'PLANNING' ? 'PLANNING' : 'EXECUTING', decision.reason);
        return finish(repaired.stop);
      }
      lastRung = repaired.label;
      moveAgent(scope, 'EXECUTING', `recovery rung done: ${repaired.label}`);
      repairs++;
      scope.metrics.recordRepair();
      scope.emit({
        type: 'step.repair',
        at: clock.now(),
        ...base,
        strategy: repaired.label,
        code: outcome.code,
        detail: outcome.detail,
      });
      decision = repaired.decision;
      continue;
    }
    return finish(outcome);
  }
}

const PROGRESS_BLOCKS = 1;
/** The detail names this many unmet expectations; the outcome's `unmet` lists them all. */
const LISTED_UNMET = 5;

const canMove = (scope: RunScope) => hasFreeNeighbour(scope.world);

/** At least a block closer to the target (or, without one, a block away from where the attempt started). */
function madeProgress(
  from: { x: number; y: number; z: number },
  to: { x: number; y: number; z: number },
  target: ReturnType<typeof targetOf>,
): boolean {
  const before = distanceTo(from, target);
  const after = distanceTo(to, target);
  if (before === null || after === null)
    return Math.hypot(to.x - from.x, to.y - from.y, to.z - from.z) >= PROGRESS_BLOCKS;
  return before - after >= PROGRESS_BLOCKS;
}

/**
 * V4: the world's truth after the attempt, judged against the step's expectations as asked (and its own acceptance).
 */
async function judge(
  scope: RunScope,
  spec: AnyCapabilitySpec,
  args: unknown,
  asked: Asked,
): Promise<{ outcome: StepOutcome; brokenUserCode?: true }> {
  const observed = await observeWithin(scope, verdictQuery(spec, args, asked.expectations), 'to verify the effects');
  if (!observed.ok) return { outcome: fail(observed.code, observed.detail) };
  const verdict = callJudge(spec, asked.expectations, asked.pre, observed.observation, args);
  if (!verdict.ok) return { outcome: fail('runner_error', verdict.detail), brokenUserCode: true };
  if (verdict.value.ok) return { outcome: { ok: true } };
  const { unmet } = verdict.value;
  const listed =
    unmet.length > LISTED_UNMET ? [...unmet.slice(0, LISTED_UNMET), `and ${unmet.length - LISTED_UNMET} more`] : unmet;
  return { outcome: fail('effects_unmet', `acceptance failed: ${listed.join('; ')}`, unmet) };
}
