import type { BeginRun, PlannedStep } from '../journal.js';
import type { PlanRevisionRow, StepStatus } from '../rows.js';
import { exec, get, json, later, type Later, type Param, type Tx } from './tx.js';

/** The plan's current run: the latest one opened (one process runs a plan at a time, under its lease). */
export function* currentRun(planId: string): Tx<number | null> {
  const row = yield* get<{ id: number | null }>('SELECT MAX(id) AS id FROM runs WHERE plan_id = ?', planId);
  return row?.id === null || row?.id === undefined ? null : Number(row.id);
}

/** Moves a step to `to` and records the transition; false when the step does not exist. */
export function* transition(
  planId: string,
  stepId: string,
  to: StepStatus,
  reason: string | null,
  runId: number | null,
): Tx<boolean> {
  const row = yield* get<{ known: number }>(
    'SELECT 1 AS known FROM steps WHERE plan_id = ? AND step_id = ?',
    planId,
    stepId,
  );
  if (!row) return false;
  yield* moveStep(planId, stepId, to, reason, runId);
  return true;
}

/**
 * Moves a step to `to` and records the transition (nothing, for a step that does not exist), in statements whose
 * answers nothing waits for: PostgreSQL sends them with the transaction's next statement, or its COMMIT.
 */
export function* moveStep(
  planId: string,
  stepId: string,
  to: StepStatus,
  reason: string | null,
  runId: number | null,
): Tx<void> {
  // The transition first: it reads the status the update replaces.
  yield* exec(
    `INSERT INTO step_transitions (plan_id, step_id, run_id, from_status, to_status, at, reason)
     SELECT plan_id, step_id, ?, status, ?, verbtree_now(), ? FROM steps WHERE plan_id = ? AND step_id = ?`,
    runId,
    to,
    reason,
    planId,
    stepId,
  );
  yield* exec(
    'UPDATE steps SET status = ?, updated_at = verbtree_now() WHERE plan_id = ? AND step_id = ?',
    to,
    planId,
    stepId,
  );
}

/**
 * Journals a plan and opens its run; a new run of a journaled plan starts it over, a resumed one continues it. A fleet
 * run keeps the lease epoch it was written under.
 */
export function* beginRun(planned: BeginRun, epoch: number | null = null): Tx<number> {
  const body = json(planned.body) ?? 'null';
  const world = planned.world ? json(planned.world) : null;
  // Journaled or not, in statements whose answers nothing waits for: a resumed plan continues as it was journaled.
  const journaled = planned.resumed
    ? "status = 'running', updated_at = excluded.updated_at"
    : "intent_id = excluded.intent_id, body = excluded.body, world = excluded.world, status = 'running', updated_at = excluded.updated_at";
  yield* exec(
    `INSERT INTO plans (plan_id, intent_id, body, world, status, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'running', verbtree_now(), verbtree_now()) ON CONFLICT (plan_id) DO UPDATE SET ${journaled}`,
    planned.planId,
    planned.intentId,
    body,
    world,
  );
  if (!planned.resumed) {
    // A new run of a journaled plan starts over; the old run's history stays in transitions, attempts and events.
    yield* exec(
      `INSERT INTO step_transitions (plan_id, step_id, run_id, from_status, to_status, at, reason)
       SELECT plan_id, step_id, NULL, status, 'pending', verbtree_now(), 'new run of the plan' FROM steps
       WHERE plan_id = ? AND status != 'pending'`,
      planned.planId,
    );
    yield* exec(
      "UPDATE steps SET status = 'pending', updated_at = verbtree_now() WHERE plan_id = ? AND status != 'pending'",
      planned.planId,
    );
    // What an earlier run expected is no claim about this one: a resume checks only expectations journaled in its own
    // line of runs.
    yield* exec('UPDATE steps SET expectations = NULL WHERE plan_id = ?', planned.planId);
  }
  const opened = yield* get<{ id: number }>(
    'INSERT INTO runs (plan_id, runner_id, resumed, started_at, epoch) VALUES (?, ?, ?, verbtree_now(), ?) RETURNING id',
    planned.planId,
    planned.runnerId,
    planned.resumed ? 1 : 0,
    epoch,
  );
  const runId = Number(opened!.id);
  for (const [index, step] of planned.steps.entries()) yield* ensureStep(planned.planId, step, null, index, runId);
  return runId;
}

/**
 * A step the journal does not know yet, as pending with its `planned` (or sub-goal) transition, in statements whose
 * answers nothing waits for. A step inserted has no transition yet (every step is inserted here, with its first), so
 * one with none is the one just inserted. `seq` null: after the steps known (a step learnt late: a sub-goal, a
 * replacement).
 */
export function* ensureStep(
  planId: string,
  step: { stepId: string; type: string; args?: unknown; idempotencyKey?: string | undefined },
  parent: string | null,
  seq: number | null,
  runId: number | null,
): Tx<void> {
  yield* exec(
    `INSERT INTO steps (plan_id, step_id, parent_step_id, seq, verb, args, idempotency_key, status, updated_at)
     VALUES (?, ?, ?, COALESCE(?, (SELECT COALESCE(MAX(seq), -1) + 1 FROM steps WHERE plan_id = ?)), ?, ?, ?, 'pending', verbtree_now())
     ON CONFLICT DO NOTHING`,
    planId,
    step.stepId,
    parent,
    seq,
    planId,
    step.type,
    step.args === null ? null : json(step.args ?? {}),
    step.idempotencyKey ?? null,
  );
  yield* exec(
    `INSERT INTO step_transitions (plan_id, step_id, run_id, from_status, to_status, at, reason)
     SELECT ?, ?, ?, NULL, 'pending', verbtree_now(), ?
     WHERE NOT EXISTS (SELECT 1 FROM step_transitions WHERE plan_id = ? AND step_id = ?)`,
    planId,
    step.stepId,
    runId,
    parent ? `sub-goal of ${parent}` : 'planned',
    planId,
    step.stepId,
  );
}

/** The next seq of a plan's steps: a step learnt late (a sub-goal, a replacement) goes after the ones known. */
export function* nextSeq(planId: string): Tx<number> {
  const row = yield* get<{ next: number }>(
    'SELECT COALESCE(MAX(seq), -1) + 1 AS next FROM steps WHERE plan_id = ?',
    planId,
  );
  return Number(row!.next);
}

/**
 * A top-level step from the planner's latest replacement starts: the plan's line now continues with that
 * replacement. Its steps not yet started are journaled as pending, so a resume (and `verbtree show`) knows them.
 */
export function* adoptRevision(planId: string, stepId: string, runId: number | null): Tx<void> {
  // Only a reply sent during this run: an earlier run's refused reply must not be adopted by a step that happens to
  // share its id.
  const latest = yield* get<Pick<PlanRevisionRow, 'id' | 'steps' | 'adopted_at'>>(
    'SELECT id, steps, adopted_at FROM plan_revisions WHERE plan_id = ? AND created_at >= COALESCE((SELECT started_at FROM runs WHERE id = ?), 0) ORDER BY id DESC LIMIT 1',
    planId,
    runId,
  );
  if (!latest || latest.adopted_at !== null) return;
  const steps = JSON.parse(latest.steps) as PlannedStep[];
  if (!steps.some((s) => s.stepId === stepId)) return;
  yield* exec('UPDATE plan_revisions SET adopted_at = verbtree_now(), run_id = ? WHERE id = ?', runId, latest.id);
  let seq = yield* nextSeq(planId);
  for (const step of steps) yield* ensureStep(planId, step, null, seq++, runId);
}

/** Ends the step's open attempt with its outcome (no open attempt: nothing to do). */
export function* closeAttempt(planId: string, stepId: string, outcome: string, detail: string | null): Tx<void> {
  yield* exec(
    'UPDATE attempts SET ended_at = verbtree_now(), outcome = ?, detail = ? WHERE plan_id = ? AND step_id = ? AND ended_at IS NULL',
    outcome,
    detail,
    planId,
    stepId,
  );
}

export function* openAttempt(planId: string, stepId: string, runId: number | null): Tx<void> {
  // Every path that opens an attempt closes the last one first; this only guards the journal's invariant of one open
  // attempt per step.
  yield* closeAttempt(planId, stepId, 'superseded', null);
  yield* exec(
    `INSERT INTO attempts (plan_id, step_id, run_id, number, started_at)
     VALUES (?, ?, ?, (SELECT COUNT(*) + 1 FROM attempts WHERE plan_id = ? AND step_id = ?), verbtree_now())`,
    planId,
    stepId,
    runId,
    planId,
    stepId,
  );
}

const OPEN_ATTEMPT = '(SELECT MAX(id) FROM attempts WHERE plan_id = ? AND step_id = ? AND ended_at IS NULL)';

/** The action's id, once the transaction has committed: nothing in it waits for the id (its settling comes later). */
export function* recordAction(planId: string, stepId: string, command: string, args: unknown): Tx<Later<number>> {
  yield* exec(
    'UPDATE attempts SET last_actuator_at = verbtree_now() WHERE plan_id = ? AND step_id = ? AND ended_at IS NULL',
    planId,
    stepId,
  );
  return yield* later(
    (row) => Number((row as { id: number }).id),
    `INSERT INTO actions (attempt_id, plan_id, step_id, command, args, started_at) VALUES (${OPEN_ATTEMPT}, ?, ?, ?, ?, verbtree_now()) RETURNING id`,
    planId,
    stepId,
    planId,
    stepId,
    command,
    json(args ?? null),
  );
}

export function* settleAction(id: number, error: string | null): Tx<void> {
  yield* exec('UPDATE actions SET settled_at = verbtree_now(), error = ? WHERE id = ?', error, id);
}

export function* recordNodeStates(row: {
  planId: string;
  stepId: string;
  tree: string;
  changes: readonly [string, string][];
  position: { x: number; y: number; z: number } | null;
}): Tx<void> {
  yield* exec(
    `INSERT INTO node_states (plan_id, step_id, attempt_id, tree, at, changes, event_id, x, y, z)
     VALUES (?, ?, ${OPEN_ATTEMPT}, ?, verbtree_now(), ?, (SELECT MAX(id) FROM events WHERE plan_id = ?), ?, ?, ?)`,
    row.planId,
    row.stepId,
    row.planId,
    row.stepId,
    row.tree,
    JSON.stringify(row.changes),
    row.planId,
    row.position?.x ?? null,
    row.position?.y ?? null,
    row.position?.z ?? null,
  );
}

export function* recordRevision(revision: {
  planId: string;
  rung: number;
  planner: string;
  failedStepId: string;
  steps: unknown;
}): Tx<void> {
  yield* exec(
    'INSERT INTO plan_revisions (plan_id, rung, planner, failed_step_id, steps, created_at) VALUES (?, ?, ?, ?, ?, verbtree_now())',
    revision.planId,
    revision.rung,
    revision.planner,
    revision.failedStepId,
    JSON.stringify(revision.steps),
  );
}

export function* recordIntent(intent: { id: string; source?: string; goal?: string }): Tx<void> {
  yield* exec(
    'INSERT INTO intents (id, source, goal, body, created_at) VALUES (?, ?, ?, ?, verbtree_now()) ON CONFLICT DO NOTHING',
    intent.id,
    intent.source ?? null,
    intent.goal ?? null,
    JSON.stringify(intent),
  );
}

export function* setPlanStatus(planId: string, status: string): Tx<void> {
  yield* exec('UPDATE plans SET status = ?, updated_at = verbtree_now() WHERE plan_id = ?', status, planId);
}

export function* openIncident(incident: {
  planId?: string | null;
  stepId?: string | null;
  runnerId?: string | null;
  attemptId?: number | null;
  mode: string;
  details: unknown;
  at?: number;
}): Tx<number> {
  const row = yield* get<{ id: number }>(
    'INSERT INTO incidents (plan_id, step_id, runner_id, attempt_id, failure_mode, detected_at, details) VALUES (?, ?, ?, ?, ?, COALESCE(?, verbtree_now()), ?) RETURNING id',
    incident.planId ?? null,
    incident.stepId ?? null,
    incident.runnerId ?? null,
    incident.attemptId ?? null,
    incident.mode,
    incident.at ?? null,
    JSON.stringify(incident.details ?? null),
  );
  return Number(row!.id);
}

export function* resolveIncident(id: number, resolution: string): Tx<void> {
  yield* exec('UPDATE incidents SET resolved_at = verbtree_now(), resolution = ? WHERE id = ?', resolution, id);
}

/** `?, ?, ?` for a list of parameters. */
export function placeholders(values: readonly Param[]): string {
  return values.map(() => '?').join(', ');
}
