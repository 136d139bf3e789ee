import { expectationsFor, judgeEffects, verdictQuery } from '../registry/effects.js';
import type { PlanStep } from '../contracts/plan-step.js';
import type { WorldPort } from '../contracts/world.js';
import type { ResolvedStep } from '../validate/validate-plan.js';
import type { Journal } from './journal.js';
import type { PlanRevisionRow, PlanRow, StepRow } from './rows.js';
import { asObservation, type WorldSnapshot } from './world-snapshot.js';

export class ResumeError extends Error {
  override name = 'ResumeError';
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
  if (!plan.body || plan.body === 'null') throw new ResumeError(`plan "${planId}" was journaled without its steps (it was never accepted); run it again instead`);
  if (plan.status === 'succeeded') throw new ResumeError(`plan "${planId}" already succeeded; nothing to resume`);
  const steps = journal.sql('SELECT * FROM steps WHERE plan_id = ? ORDER BY seq').all(planId) as StepRow[];
  const busy = steps.filter((s) => s.status === 'in_progress');
  if (busy.length > 0) {
    throw new ResumeError(
      `plan "${planId}" still has step${busy.length === 1 ? '' : 's'} in progress (${busy.map((s) => s.step_id).join(', ')}): a live runner owns ${busy.length === 1 ? 'it' : 'them'}, or recovery is paused; see \`verbtree health check\``,
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
  return { plan: { planId: body.planId, intentId: body.intentId, steps: remaining }, world: plan.world ? (JSON.parse(plan.world) as Record<string, unknown>) : null,
    done,
    skipped,
    escalation: revision ? { planner: revision.planner, rung: revision.rung, failedStepId: revision.failed_step_id } : null,
  };
}

/** The plan's latest adopted escalation since it was last run afresh; undefined when it was not escalated. */
function currentRevision(journal: Journal, planId: string): PlanRevisionRow | undefined {
  return journal
    .sql(
      `SELECT * FROM plan_revisions WHERE plan_id = ? AND adopted_at IS NOT NULL
         AND run_id >= (SELECT COALESCE(MAX(id), 0) FROM runs WHERE plan_id = ? AND resumed = 0)
       ORDER BY id DESC LIMIT 1`,
    )
    .get(planId, planId) as PlanRevisionRow | undefined;
}

/**
 * A step that was reset after a crash may have had its effect before the
 * process died (a real world keeps it). Judge it by the capability's own
 * acceptance, from the world journaled at its dispatch to the world now; when
 * it holds, the step is marked succeeded and not run again.
 */
export async function settleAchievedSteps(journal: Journal, planId: string, steps: readonly ResolvedStep[], world: WorldPort): Promise<string[]> {
  const achieved: string[] = [];
  for (const { step, spec, args } of steps) {
    const row = journal.sql('SELECT pre, failure_count FROM steps WHERE plan_id = ? AND step_id = ?').get(planId, step.stepId) as Pick<StepRow, 'pre' | 'failure_count'> | undefined;
    if (!row?.pre || row.failure_count === 0) continue;
    const pre = asObservation(JSON.parse(row.pre) as WorldSnapshot, 0);
    const expectations = expectationsFor(spec, pre, args);
    const post = await world.observe(verdictQuery(spec, args, expectations));
    if (!judgeEffects(spec, expectations, pre, post, args).ok) continue;
    journal.transition(planId, step.stepId, 'succeeded', 'acceptance already held on resume: its effect happened before the crash', null);
    achieved.push(step.stepId);
  }
  return achieved;
}
