import { describeExpectation, Expectations, queryFor, unmetExpectations } from '../contracts/expectation.js';
import type { PlanStep } from '../contracts/plan-step.js';
import type { WorldPort } from '../contracts/world.js';
import { verifiableFromExpectations } from '../registry/effects.js';
import type { CapabilityRegistry } from '../registry/registry.js';
import { validatePlan, type ResolvedStep } from '../validate/validate-plan.js';
import type { Journal } from './journal.js';
import type { Fence } from './rows.js';
import type { Interruption } from './sql/fleet.js';

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
export async function resumePoint(journal: Journal, planId: string): Promise<ResumePoint> {
  const record = await journal.resumeRecord(planId);
  if (!record) throw new ResumeError(`no plan "${planId}" in the journal; \`verbtree runs\` lists the journaled plans`);
  const { plan, steps, revision } = record;
  if (!plan.body || plan.body === 'null')
    throw new ResumeError(
      `plan "${planId}" was journaled without its steps (it was never accepted); run it again instead`,
    );
  if (plan.status === 'succeeded') throw new ResumeError(`plan "${planId}" already succeeded; nothing to resume`);
  const busy = steps.filter((s) => s.status === 'in_progress');
  if (busy.length > 0) {
    throw new ResumeError(
      `plan "${planId}" still has step${busy.length === 1 ? '' : 's'} in progress (${busy.map((s) => s.step_id).join(', ')}): a live runner owns ${busy.length === 1 ? 'it' : 'them'}, or recovery is paused; see \`verbtree health check\``,
      true,
    );
  }
  const rows = new Map(steps.map((s) => [s.step_id, s]));
  const body = JSON.parse(plan.body) as { planId: string; intentId: string; steps: PlanStep[] };
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
 * it may undo what a later step had done. A fleet worker passes its bot's fence: a verdict is journaled only while
 * it holds the bot.
 */
export async function verifyInterruptedSteps(
  journal: Journal,
  planId: string,
  steps: readonly ResolvedStep[],
  world: WorldPort,
  fence?: Fence,
): Promise<ResumeVerdicts> {
  const verdicts: ResumeVerdicts = { achieved: [], rerun: [] };
  const record = await journal.resumeRecord(planId);
  const rows = new Map((record?.steps ?? []).map((s) => [s.step_id, s]));
  const dispatched = new Set(record?.dispatchedInLine ?? []);
  for (const { step, spec } of steps) {
    const row = rows.get(step.stepId);
    // Only a step set back to pending (interrupted, or not trusted) after a dispatch in this line of runs is checked;
    // one never dispatched, or one that ended failed, runs again, and so does everything after it.
    if (row?.status !== 'pending' || !dispatched.has(step.stepId)) break;
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
    await journal.transition(
      planId,
      step.stepId,
      'succeeded',
      `verified on resume: its expectations hold in the live world (${held.join('; ')})`,
      fence,
    );
    verdicts.achieved.push({ stepId: step.stepId, held });
  }
  return verdicts;
}

/** What of the journaled expectations the live world does not hold now; null when it holds them all. */
export async function unmetNow(world: WorldPort, journaled: string): Promise<string | null> {
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
export function distrustUnsavedSteps(journal: Journal, planId: string, savedAt: number): Promise<string[]> {
  return journal.distrustUnsavedSteps(planId, savedAt);
}

/** What is left to run of a stopped plan: its remaining steps, or the end it was journaled with when none are left. */
export type Remaining =
  | { plan: { planId: string; intentId: string; steps: PlanStep[] } }
  | { ended: 'succeeded' }
  | { ended: 'failed'; why: string };

/**
 * A plan stopped mid-way (its holder gone, or a server's rollback undid a step) goes on under `run --resume`'s rules:
 * what it had in progress is ended (`interruption` says why), its interrupted steps whose journaled expectations hold
 * in the live world are succeeded and not run again, and the rest (what is gone, retracted or never done) is what runs.
 * When nothing is left the plan is journaled succeeded; when it cannot be resumed, failed. `say` is given each line
 * worth a log.
 */
export async function remainingToRun(
  journal: Journal,
  planId: string,
  deps: {
    registry: CapabilityRegistry;
    world: WorldPort;
    interruption: Interruption;
    say: (line: string) => void;
    fence?: Fence;
  },
): Promise<Remaining> {
  const { fence, say } = deps;
  await journal.interruptPlan(planId, deps.interruption, fence);
  let point;
  try {
    point = await resumePoint(journal, planId);
  } catch (error) {
    if (!(error instanceof ResumeError)) throw error;
    say(`cannot be resumed: ${error.message}`);
    await journal.setPlanStatus(planId, 'failed', fence);
    return { ended: 'failed', why: error.message };
  }
  if (point.plan.steps.length > 0) {
    const report = validatePlan(point.plan, deps.registry);
    if (!report.ok) return { plan: point.plan };
    const verdicts = await verifyInterruptedSteps(journal, planId, report.steps, deps.world, fence);
    for (const { stepId, held } of verdicts.achieved)
      say(`already achieved (checked against the live world): ${stepId}: ${held.join('; ')}`);
    const achieved = new Set(verdicts.achieved.map((a) => a.stepId));
    const steps = point.plan.steps.filter((s) => !achieved.has(s.stepId));
    if (steps.length > 0) return { plan: { ...point.plan, steps } };
  }
  await journal.setPlanStatus(planId, 'succeeded', fence);
  say('every step is done and verified');
  return { ended: 'succeeded' };
}
