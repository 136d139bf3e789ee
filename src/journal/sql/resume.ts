import type { EffectRow, PlanRevisionRow, StepRow } from '../rows.js';
import type { ResumeRecord } from '../views.js';
import { plan } from './reads.js';
import { moveStep } from './record.js';
import { all, get, run, type Tx } from './tx.js';

/** The first run of the plan's current line: its latest fresh (not resumed) run; later runs resumed it. */
export function* lineStartRunId(planId: string): Tx<number> {
  const row = yield* get<{ id: number }>(
    'SELECT COALESCE(MAX(id), 0) AS id FROM runs WHERE plan_id = ? AND resumed = 0',
    planId,
  );
  return Number(row!.id);
}

export function* resumeRecord(planId: string): Tx<ResumeRecord | null> {
  const found = yield* plan(planId);
  if (!found) return null;
  const steps = yield* all<StepRow>('SELECT * FROM steps WHERE plan_id = ? ORDER BY seq', planId);
  const lineStart = yield* lineStartRunId(planId);
  // The plan's latest adopted escalation since it was last run afresh.
  const revision = yield* get<PlanRevisionRow>(
    'SELECT * FROM plan_revisions WHERE plan_id = ? AND adopted_at IS NOT NULL AND run_id >= ? ORDER BY id DESC LIMIT 1',
    planId,
    lineStart,
  );
  const dispatched = yield* all<{ step_id: string }>(
    "SELECT DISTINCT step_id FROM step_transitions WHERE plan_id = ? AND to_status = 'in_progress' AND run_id >= ?",
    planId,
    lineStart,
  );
  return {
    plan: found,
    steps,
    lineStartRunId: lineStart,
    revision,
    dispatchedInLine: dispatched.map((d) => d.step_id),
  };
}

export function* lineEffects(planId: string): Tx<EffectRow[]> {
  const lineStart = yield* lineStartRunId(planId);
  return yield* all<EffectRow>(
    'SELECT * FROM effects WHERE plan_id = ? AND run_id >= ? ORDER BY id',
    planId,
    lineStart,
  );
}

/**
 * Steps of the current line that succeeded after the world was last saved go back to pending, and idempotency keys
 * completed after the save are forgotten (see `distrustUnsavedSteps` in resume.ts).
 */
export function* distrustUnsavedSteps(planId: string, savedAt: number): Tx<string[]> {
  const lineStart = yield* lineStartRunId(planId);
  const rows = yield* all<{ step_id: string }>(
    `SELECT s.step_id FROM steps s WHERE s.plan_id = ? AND s.parent_step_id IS NULL AND s.status = 'succeeded'
       AND (SELECT MAX(t.at) FROM step_transitions t WHERE t.plan_id = s.plan_id AND t.step_id = s.step_id AND t.to_status = 'succeeded' AND t.run_id >= ?) > ?
     ORDER BY s.seq`,
    planId,
    lineStart,
    savedAt,
  );
  const when = new Date(savedAt).toISOString();
  for (const { step_id } of rows)
    yield* moveStep(
      planId,
      step_id,
      'pending',
      `not trusted on resume: it succeeded after the world was last saved (${when})`,
      null,
    );
  yield* run("DELETE FROM idempotency WHERE plan_id = ? AND state = 'completed' AND completed_at > ?", planId, savedAt);
  return rows.map((r) => r.step_id);
}
