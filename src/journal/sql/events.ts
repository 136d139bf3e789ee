import type { AcceptedStep, EventOf } from '../../executor/events.js';
import type { PlanStepInput } from '../../contracts/plan-step.js';
import type { EventRecord } from '../journal.js';
import {
  adoptRevision,
  closeAttempt,
  currentRun,
  ensureStep,
  moveStep,
  openAttempt,
  openIncident,
  recordRevision,
} from './record.js';
import { exec, get, json, type Tx } from './tx.js';

/** A rejected plan's run keeps this many of its issues. */
const MAX_ISSUES_IN_DETAIL = 20;

/**
 * One executor event, journaled: its row in `events`, and what it means for the plan's steps, attempts, runs,
 * revisions, incidents and the capabilities' SLA, in the same transaction.
 */
export function* recordEvent(record: EventRecord): Tx<void> {
  const { event } = record;
  const runId = record.runId ?? (yield* currentRun(event.planId));
  yield* exec(
    'INSERT INTO events (run_id, plan_id, type, at, body) VALUES (?, ?, ?, ?, ?)',
    runId,
    event.planId,
    event.type,
    event.at,
    JSON.stringify(event),
  );
  switch (event.type) {
    case 'plan.accepted':
      return yield* planAccepted(event, runId);
    case 'step.started':
      return yield* stepStarted(event, runId, record.revised);
    case 'step.refused':
    case 'step.deduplicated':
      // No step.started came before: step.ended moves the step from pending to failed or succeeded.
      return yield* learnStep(event, runId, record.revised);
    case 'step.expects':
      yield* updateStep(event, 'expectations = ?', JSON.stringify(event.expectations));
      return;
    case 'attempt.started':
      return yield* openAttempt(event.planId, event.stepId, runId);
    case 'step.firstAction':
      yield* updateStep(event, 'ttfa_ms = ?', event.ttfaMs);
      return;
    case 'step.retry':
    case 'step.repair':
      // The failed attempt ends with its code; the next one opens at its own attempt.started.
      return yield* closeAttempt(event.planId, event.stepId, event.code, event.detail);
    case 'step.preempted':
      return yield* closeAttempt(event.planId, event.stepId, 'preempted', `${event.by}: ${event.reason}`);
    case 'step.resumed':
      yield* updateStep(event, 'deadline_at = verbtree_now() + ?', event.deadlineAt - event.at);
      return;
    case 'step.ended':
      return yield* stepEnded(event, runId, record.effects);
    case 'plan.replaced':
      // As a planner's replacement: a revision, adopted (and its steps journaled) when its first step starts.
      return yield* recordRevision({
        planId: event.planId,
        rung: 0,
        planner: 'operator',
        failedStepId: event.afterStepId ?? '',
        steps: event.steps,
      });
    case 'incident':
      yield* openIncident({
        planId: event.planId,
        stepId: event.stepId ?? null,
        runnerId: record.runnerId,
        mode: event.kind,
        details: { detail: event.detail },
      });
      return;
    case 'plan.cancelled':
      if (runId !== null)
        yield* exec('UPDATE runs SET cancelled_at = verbtree_now() WHERE id = ? AND cancelled_at IS NULL', runId);
      return;
    case 'plan.rejected':
    case 'plan.ended':
      return yield* planEnded(event, runId);
    default:
      return;
  }
}

function* updateStep(event: { planId: string; stepId: string }, set: string, value: string | number | null): Tx<void> {
  yield* exec(`UPDATE steps SET ${set} WHERE plan_id = ? AND step_id = ?`, value, event.planId, event.stepId);
}

/** The plan as validated: every step with the version it resolved to and its arguments as parsed. */
function* planAccepted(event: EventOf<'plan.accepted'>, runId: number | null): Tx<void> {
  for (const [index, step] of event.resolved.entries()) {
    yield* ensureStep(event.planId, step, null, index, runId);
    yield* exec(
      'UPDATE steps SET capability_version = ?, args = ?, idempotency_key = ? WHERE plan_id = ? AND step_id = ?',
      step.version,
      json(step.args),
      step.idempotencyKey ?? null,
      event.planId,
      step.stepId,
    );
  }
  // A plan planned from an intent (or handed to the executor directly) has no body yet: its resolved steps are it, so
  // it can be resumed.
  const body = { planId: event.planId, intentId: event.intentId, steps: event.resolved.map(asPlanStep) };
  yield* exec(
    "UPDATE plans SET body = ? WHERE plan_id = ? AND (body IS NULL OR body = 'null')",
    JSON.stringify(body),
    event.planId,
  );
}

/**
 * A step starts, or its idempotency key ends it before it starts (refused, or deduplicated). A sub-goal, a
 * fast-path step or a planner's replacement step is known from no earlier event: the journal learns it here,
 * arguments and all.
 */
function* learnStep(
  event: {
    planId: string;
    stepId: string;
    verb: string;
    args: unknown;
    idempotencyKey?: string;
    parentStepId?: string;
  },
  runId: number | null,
  revised: boolean | undefined,
): Tx<void> {
  if (event.parentStepId === undefined && revised !== false) yield* adoptRevision(event.planId, event.stepId, runId);
  const step = { stepId: event.stepId, type: event.verb, args: event.args, idempotencyKey: event.idempotencyKey };
  yield* ensureStep(event.planId, step, event.parentStepId ?? null, null, runId);
}

function* stepStarted(event: EventOf<'step.started'>, runId: number | null, revised: boolean | undefined): Tx<void> {
  yield* learnStep(event, runId, revised);
  yield* exec(
    `UPDATE steps SET verb = ?, capability_version = ?, args = ?, idempotency_key = ?, run_id = ?, deadline_at = verbtree_now() + ?,
       expectations = NULL, outcome_code = NULL, outcome_detail = NULL WHERE plan_id = ? AND step_id = ?`,
    event.verb,
    event.version,
    JSON.stringify(event.args ?? {}),
    event.idempotencyKey ?? null,
    runId,
    // Event times are the executor clock's (process-relative for SystemClock); the journal keeps its own wall time.
    event.deadlineAt - event.at,
    event.planId,
    event.stepId,
  );
  yield* moveStep(event.planId, event.stepId, 'in_progress', 'dispatched', runId);
}

function* stepEnded(event: EventOf<'step.ended'>, runId: number | null, effects: EventRecord['effects']): Tx<void> {
  const { outcome } = event;
  const code = outcome.ok ? (outcome.deduplicated ? 'deduplicated' : 'ok') : outcome.code;
  const detail = outcome.ok ? null : outcome.detail;
  yield* closeAttempt(event.planId, event.stepId, code, detail);
  yield* exec(
    'UPDATE steps SET attempts = attempts + ?, duration_ms = ?, ttfa_ms = ?, outcome_code = ?, outcome_detail = ? WHERE plan_id = ? AND step_id = ?',
    event.attempts,
    event.durationMs,
    event.ttfaMs,
    code,
    detail,
    event.planId,
    event.stepId,
  );
  const reason = outcome.ok
    ? outcome.deduplicated
      ? 'idempotency key already completed'
      : 'verified'
    : `${outcome.code}: ${outcome.detail}`;
  yield* moveStep(event.planId, event.stepId, outcome.ok ? 'succeeded' : 'failed', reason, runId);
  if (effects)
    yield* exec(
      'INSERT INTO effects (plan_id, step_id, run_id, at, post, blocks) VALUES (?, ?, ?, verbtree_now(), ?, ?)',
      event.planId,
      event.stepId,
      runId,
      JSON.stringify(effects.post),
      JSON.stringify(effects.blocks),
    );
  if (!(outcome.ok && outcome.deduplicated)) yield* updateSla(event);
}

function* updateSla(event: EventOf<'step.ended'>): Tx<void> {
  const failed = !event.outcome.ok;
  yield* exec(
    `INSERT INTO capability_sla (capability, runs, successes, ttfa_sum, ttfa_count, duration_sum, last_failure_code, last_failure_at, updated_at)
     VALUES (?, 1, ?, ?, ?, ?, ?, CASE WHEN ? = 1 THEN verbtree_now() ELSE NULL END, verbtree_now())
     ON CONFLICT (capability) DO UPDATE SET runs = capability_sla.runs + 1, successes = capability_sla.successes + excluded.successes,
       ttfa_sum = capability_sla.ttfa_sum + excluded.ttfa_sum, ttfa_count = capability_sla.ttfa_count + excluded.ttfa_count,
       duration_sum = capability_sla.duration_sum + excluded.duration_sum,
       last_failure_code = COALESCE(excluded.last_failure_code, capability_sla.last_failure_code),
       last_failure_at = COALESCE(excluded.last_failure_at, capability_sla.last_failure_at), updated_at = excluded.updated_at`,
    event.verb,
    failed ? 0 : 1,
    event.ttfaMs ?? 0,
    event.ttfaMs === null ? 0 : 1,
    event.durationMs,
    event.outcome.ok ? null : event.outcome.code,
    failed ? 1 : 0,
  );
}

function* planEnded(event: EventOf<'plan.ended'> | EventOf<'plan.rejected'>, runId: number | null): Tx<void> {
  const result =
    event.type === 'plan.ended' ? event.result : { ok: false, code: event.code, detail: issuesLine(event.issues) };
  if (runId !== null)
    yield* exec(
      'UPDATE runs SET ended_at = verbtree_now(), ok = ?, code = ?, detail = ? WHERE id = ? AND ended_at IS NULL',
      result.ok ? 1 : 0,
      result.code ?? null,
      result.detail ?? null,
      runId,
    );
  // plan.ended follows plan.rejected: the plan stays rejected, not merely failed.
  yield* exec(
    "UPDATE plans SET status = ?, updated_at = verbtree_now() WHERE plan_id = ? AND status != 'rejected'",
    result.ok ? 'succeeded' : event.type === 'plan.rejected' ? 'rejected' : yield* failedStatus(runId),
    event.planId,
  );
}

/** A run that failed after its plan.cancelled was cancelled (its steps end `aborted`); any other failed. */
function* failedStatus(runId: number | null): Tx<'cancelled' | 'failed'> {
  if (runId === null) return 'failed';
  const run = yield* get<{ cancelled_at: number | null }>('SELECT cancelled_at FROM runs WHERE id = ?', runId);
  return run?.cancelled_at != null ? 'cancelled' : 'failed';
}

/** A resolved step written back as a plan step, pinned to the version it resolved to. */
function asPlanStep(step: AcceptedStep): PlanStepInput {
  return {
    stepId: step.stepId,
    type: step.type,
    version: step.version,
    args: step.args as Record<string, unknown>,
    ...(step.idempotencyKey ? { idempotencyKey: step.idempotencyKey } : {}),
  };
}

/** The first issues of a rejected plan in one line, and how many more there were: a huge plan may have a million. */
function issuesLine(issues: readonly { message: string }[]): string {
  const shown = issues.slice(0, MAX_ISSUES_IN_DETAIL).map((i) => i.message.slice(0, 500));
  return `${shown.join('; ')}${issues.length > shown.length ? `; … and ${issues.length - shown.length} more issues` : ''}`;
}
