import { describeExpectation, Expectations, queryFor, unmetExpectations } from '../contracts/expectation.js';
import type { PlanStep } from '../contracts/plan-step.js';
import type { WorldPort } from '../contracts/world.js';
import { verifiableFromExpectations } from '../registry/effects.js';
import type { ResolvedStep } from '../validate/validate-plan.js';
import type { Journal } from './journal.js';
import type { PlanRevisionRow, PlanRow, StepRow } from './rows.js';

export class ResumeError extends Error {
  override name = 'ResumeError';

  /**
   * `stepsInProgress`: refused because steps are still in progress (a live runner owns them, or recovery is paused).
   */
  constructor(
    message: string,
    readonly stepsInProgress = false,
  ) {
    super(message);
  }
}

export interface ResumePoint {
  plan: { planId: string; intentId: string; steps: PlanStep[] };
  /** How the plan's world was opened, as journaled (e.g. the scenario file and seed). */
  world: Record<string, unknown> | null;
  done: string[];
  skipped: string[];
  /** Set when the plan was escalated before it stopped: whose replacement the resume continues. */
  escalation: { planner: string; rung: number; failedStepId: string } | null;
}

/**
 * What is left of a journaled plan: the steps of its current line (the plan's
 * own, or the planner's replacement adopted at its latest escalation) that have
 * not succeeded or been skipped, in order, with the arguments the journal
 * recorded when they were accepted or started. Sub-goals are left out: their
 * parent's guard derives them again. Refuses while a step is still in
 * progress: a live runner owns it, or a health check has not yet recovered it.
 */
export function resumePoint(journal: Journal, planId: string): ResumePoint {
  const plan = journal.sql('SELECT * FROM plans WHERE plan_id = ?').get(planId) as PlanRow | undefined;
  if (!plan) throw new ResumeError(`no plan "${planId}" in the journal; \`verbtree runs\` lists the journaled plans`);
  if (!plan.body || plan.body === 'null')
    throw new ResumeError(
      `plan "${planId}" was journaled without its steps (it was never accepted); run it again instead`,
    );
  if (plan.status === 'succeeded') throw new ResumeError(`plan "${planId}" already succeeded; nothing to resume`);
  const steps = journal.sql('SELECT * FROM steps WHERE plan_id = ? ORDER BY seq').all(planId) as StepRow[];
  const busy = steps.filter((s) => s.status === 'in_progress');
  if (busy.length > 0) {
    throw new ResumeError(
      `plan "${planId}" still has step${busy.length === 1 ? '' : 's'} in progress (${busy.map((s) => s.step_id).join(', ')}): a live runner owns ${busy.length === 1 ? 'it' : 'them'}, or recovery is paused; see \`verbtree health check\``,
      true,
    );
  }
  const rows = new Map(steps.map((s) => [s.step_id, s]));
  const body = JSON.parse(plan.body) as { planId: string; intentId: string; steps: PlanStep[] };
  const revision = currentRevision(journal, planId);
  const line = revision ? (JSON.parse(revision.steps) as PlanStep[]) : body.steps;
  const done = steps.filter((s) => s.parent_step_id === null && s.status === 'succeeded').map((s) => s.step_id);
  const skipped = line.filter((s) => rows.get(s.stepId)?.status === 'skipped').map((s) => s.stepId);
  const remaining = line
    .filter((s) => rows.get(s.stepId)?.status !== 'succeeded' && !skipped.includes(s.stepId))
    .map((s) => {
      const journaled = rows.get(s.stepId)?.args;
      return journaled ? { ...s, args: JSON.parse(journaled) as Record<string, unknown> } : s;
    });
  return {
    plan: { planId: body.planId, intentId: body.intentId, steps: remaining },
    world: plan.world ? (JSON.parse(plan.world) as Record<string, unknown>) : null,
    done,
    skipped,
    escalation: revision
      ? { planner: revision.planner, rung: revision.rung, failedStepId: revision.failed_step_id }
      : null,
  };
}

/** The first run of the plan's current line: its latest fresh (not resumed) run; later runs resumed it. */
export function lineStartRunId(journal: Journal, planId: string): number {
  return (
    journal.sql('SELECT COALESCE(MAX(id), 0) AS id FROM runs WHERE plan_id = ? AND resumed = 0').get(planId) as {
      id: number;
    }
  ).id;
}

/** The plan's latest adopted escalation since it was last run afresh; undefined when it was not escalated. */
function currentRevision(journal: Journal, planId: string): PlanRevisionRow | undefined {
  return journal
    .sql(
      'SELECT * FROM plan_revisions WHERE plan_id = ? AND adopted_at IS NOT NULL AND run_id >= ? ORDER BY id DESC LIMIT 1',
    )
    .get(planId, lineStartRunId(journal, planId)) as PlanRevisionRow | undefined;
}

export interface ResumeVerdicts {
  /** Interrupted steps whose every journaled expectation holds in the live world: marked succeeded, not run again. */
  achieved: { stepId: string; held: string[] }[];
  /** Interrupted steps that run again, and why they could not be called achieved. */
  rerun: { stepId: string; why: string }[];
}

/**
 * Steps a crash interrupted may have had their effect before the process
 * died. Such a step is marked achieved only when its capability is judged by
 * expectations alone and every expectation journaled at its dispatch (an
 * absolute fact: the pack holds at least N of X, the block at P is Y) holds
 * in the live world now. Checked in plan order, and only as a prefix: after
 * the first step that is not achieved, everything runs again, because running
 * it may undo what a later step had done.
 */
export async function verifyInterruptedSteps(
  journal: Journal,
  planId: string,
  steps: readonly ResolvedStep[],
  world: WorldPort,
): Promise<ResumeVerdicts> {
  const verdicts: ResumeVerdicts = { achieved: [], rerun: [] };
  const lineStart = lineStartRunId(journal, planId);
  for (const { step, spec } of steps) {
    const row = journal
      .sql('SELECT status, expectations FROM steps WHERE plan_id = ? AND step_id = ?')
      .get(planId, step.stepId) as Pick<StepRow, 'status' | 'expectations'> | undefined;
    const dispatched = journal
      .sql(
        "SELECT 1 FROM step_transitions WHERE plan_id = ? AND step_id = ? AND to_status = 'in_progress' AND run_id >= ?",
      )
      .get(planId, step.stepId, lineStart);
    // Only a step set back to pending (interrupted, or not trusted) after a dispatch in this line of runs is checked;
    // one never dispatched, or one that ended failed, runs again, and so does everything after it.
    if (row?.status !== 'pending' || !dispatched) break;
    const why = !verifiableFromExpectations(spec)
      ? `${spec.name}@${spec.version} ${spec.expect ? 'is judged by its own acceptance, not by expectations alone' : 'declares no expectations to check'}`
      : !row.expectations
        ? 'no expectations were journaled at its dispatch'
        : await unmetNow(world, row.expectations);
    if (why !== null) {
      verdicts.rerun.push({ stepId: step.stepId, why });
      break;
    }
    const held = Expectations.parse(JSON.parse(row.expectations!)).map(describeExpectation);
    journal.transition(
      planId,
      step.stepId,
      'succeeded',
      `verified on resume: its expectations hold in the live world (${held.join('; ')})`,
      null,
    );
    verdicts.achieved.push({ stepId: step.stepId, held });
  }
  return verdicts;
}

async function unmetNow(world: WorldPort, journaled: string): Promise<string | null> {
  const parsed = Expectations.safeParse(JSON.parse(journaled));
  if (!parsed.success) return 'its journaled expectations do not parse';
  const unmet = unmetExpectations(parsed.data, await world.observe(queryFor(parsed.data)));
  return unmet.length === 0 ? null : `not in the live world: ${unmet.join('; ')}`;
}

/**
 * A world kept on disk is saved every second or so, not at each step: after a
 * SIGKILL it holds what it held at its last save. A step of the current line
 * that succeeded after that save may have lost its effect, so it is no longer
 * trusted: set back to pending (verified or run again like an interrupted
 * step), and idempotency keys completed after the save are forgotten, so they
 * cannot deduplicate a step whose effect is gone. Returns the steps set back.
 */
export function distrustUnsavedSteps(journal: Journal, planId: string, savedAt: number): string[] {
  return journal.write(() => {
    const rows = journal
      .sql(
        `SELECT s.step_id FROM steps s WHERE s.plan_id = ? AND s.parent_step_id IS NULL AND s.status = 'succeeded'
           AND (SELECT MAX(t.at) FROM step_transitions t WHERE t.plan_id = s.plan_id AND t.step_id = s.step_id AND t.to_status = 'succeeded' AND t.run_id >= ?) > ?
         ORDER BY s.seq`,
      )
      .all(planId, lineStartRunId(journal, planId), savedAt) as { step_id: string }[];
    for (const { step_id } of rows)
      journal.transition(
        planId,
        step_id,
        'pending',
        `not trusted on resume: it succeeded after the world was last saved (${new Date(savedAt).toISOString()})`,
        null,
      );
    journal.sql('DELETE FROM idempotency WHERE plan_id = ? AND completed_at > ?').run(planId, savedAt);
    return rows.map((r) => r.step_id);
  });
}
