import type { Intent } from '../contracts/intent.js';
import { PlannerLoopDetector } from '../recovery/planner-loop.js';
import type { Plan } from '../contracts/plan.js';
import { validatePlan, type ResolvedStep } from '../validate/validate-plan.js';
import type { ExecutorEvent, PlanResult, StepRecord } from './events.js';
import type { FailureCode } from '../contracts/failure-codes.js';
import { observeWithin } from './observe.js';
import type { Planner, PlannerReply } from './planner.js';
import { callPlanner, checkReply } from './planner-call.js';
import { moveAgent, type RunScope } from './scope.js';
import type { RunControl } from './run-control.js';
import { executeStep } from './step-executor.js';

export interface PlanRunInput {
  plan: Plan;
  steps: ResolvedStep[];
  intent?: Intent;
  /** Ordered weakest to strongest; the escalation ladder climbs them. */
  planners: readonly Planner[];
}

type StepFailure = Extract<StepRecord['outcome'], { ok: false }>;

/**
 * Runs a validated plan's steps one at a time (I1). When a step fails past
 * local repair, climbs the escalation ladder (I3): ask the planner again with the
 * failure and its evidence, then a stronger planner, within the plan's budget;
 * then stop with `escalation_exhausted`.
 */
export async function runPlan(
  scope: RunScope,
  input: PlanRunInput,
  collectEvidence: (stepId: string) => ExecutorEvent[],
  control: RunControl,
): Promise<PlanResult> {
  const startedAt = scope.clock.now();
  const records: StepRecord[] = [];
  const queue = [...input.steps];
  let escalations = 0;
  const loops = new PlannerLoopDetector({
    similarityThreshold: scope.policy.escalation.loopSimilarity,
    window: scope.policy.escalation.loopWindow,
    maxHistory: 10,
  });
  // Totals count every dispatched step, the sub-goals and repair steps too.
  const sum = (key: 'retries' | 'repairs') => scope.dispatched.reduce((total, r) => total + r[key], 0);
  const totals = () => ({ escalations, retries: sum('retries'), repairs: sum('repairs') });

  const end = (ok: boolean, failure?: { code: StepFailure['code']; detail: string }): PlanResult => {
    const result: PlanResult = {
      planId: input.plan.planId,
      ok,
      ...(failure ? { code: failure.code, detail: failure.detail } : {}),
      steps: [...scope.dispatched],
      ...totals(),
      durationMs: scope.clock.now() - startedAt,
    };
    return result;
  };

  for (;;) {
    const next = await control.nextStep(queue, records.at(-1)?.step.stepId ?? null);
    if (!next) break;
    if (scope.signal.aborted)
      return end(false, {
        code: 'aborted',
        detail: `cancelled before ${next.step.stepId}: ${String(scope.signal.reason ?? 'the run was cancelled')}`,
      });
    scope.ladder.beginStep();
    const record = await executeStep(scope, {
      step: next.step,
      spec: next.spec,
      args: next.args,
      depth: 0,
      preemptible: true,
    });
    records.push(record);
    if (record.outcome.ok) continue;
    const failure = record.outcome;
    if (failure.code === 'aborted' || input.planners.length === 0) return end(false, failure);

    loops.recordFailed(
      { steps: [record.step, ...queue.map((q) => q.step)] },
      `${record.step.stepId} (${record.step.type}) failed with ${failure.code}`,
    );
    moveAgent(scope, 'PLANNING', `escalating ${record.step.stepId}: ${failure.code}`);
    const replacement = await escalate(scope, input, { failure, record, records, escalations, loops }, collectEvidence);
    escalations = replacement.escalations;
    if (!replacement.ok) {
      scope.emit({
        type: 'incident',
        at: scope.clock.now(),
        planId: scope.planId,
        kind: 'escalation_exhausted',
        detail: replacement.detail,
        stepId: record.step.stepId,
      });
      return end(false, { code: replacement.code ?? 'escalation_exhausted', detail: replacement.detail });
    }
    moveAgent(scope, 'EXECUTING', `the planner sent ${replacement.steps.length} new step(s)`);
    queue.splice(0, queue.length, ...replacement.steps);
  }
  return end(true);
}

interface EscalationState {
  failure: StepFailure;
  record: StepRecord;
  records: readonly StepRecord[];
  escalations: number;
  loops: PlannerLoopDetector;
}

async function escalate(
  scope: RunScope,
  input: PlanRunInput,
  state: EscalationState,
  collectEvidence: (stepId: string) => ExecutorEvent[],
): Promise<
  | { ok: true; steps: ResolvedStep[]; escalations: number }
  | { ok: false; detail: string; escalations: number; code?: FailureCode }
> {
  const { failure, record, records } = state;
  let escalations = state.escalations;
  let nudge: string | undefined;
  let lastReason = `${record.step.stepId} failed with ${failure.code}: ${failure.detail}`;
  while (escalations < scope.policy.escalation.budget && !scope.signal.aborted) {
    escalations++;
    const planner = input.planners[Math.min(escalations - 1, input.planners.length - 1)]!;
    scope.emit({
      type: 'plan.escalated',
      at: scope.clock.now(),
      planId: scope.planId,
      rung: escalations,
      planner: planner.name,
      code: failure.code,
      failedStepId: record.step.stepId,
      loop: nudge !== undefined,
    });
    const what = `planner ${planner.name}`;
    const observed = await observeWithin(scope, {}, 'for the planner');
    if (!observed.ok) return { ok: false, escalations, code: observed.code, detail: observed.detail };
    const answered = await callPlanner(scope.clock, `${what}.onFailure`, scope.policy.escalation.plannerTimeoutMs, () =>
      planner.onFailure({
        ...(input.intent ? { intent: input.intent } : {}),
        plan: input.plan,
        failedStep: record.step,
        failure: { code: failure.code, detail: failure.detail, ...(failure.unmet ? { unmet: failure.unmet } : {}) },
        evidence: collectEvidence(record.step.stepId),
        completedStepIds: records.filter((r) => r.outcome.ok).map((r) => r.step.stepId),
        observation: observed.observation,
        rung: escalations,
        ...(nudge ? { nudge } : {}),
      }),
    );
    const checked = answered.ok ? checkReply(`${what}.onFailure`, answered.value) : answered;
    if (!checked.ok) return { ok: false, escalations, code: 'planner_error', detail: checked.detail };
    const reply: PlannerReply = checked.value;
    if ('giveUp' in reply) {
      lastReason = `${what} gave up: ${reply.giveUp}`;
      // A give-up is the planner's final word, unless the policy sends the failure on to a stronger planner.
      if (!scope.policy.escalation.strongerAfterGiveUp || escalations >= input.planners.length) break;
      continue;
    }
    const loop = state.loops.check({ steps: reply.steps.map((step) => ({ type: step.type, args: step.args ?? {} })) });
    if (loop) {
      nudge = loop.nudge;
      lastReason = `planner ${planner.name} sent a plan ${loop.similarities.join(', ')} similar to the last ${loop.similarities.length} that failed`;
      scope.emit({
        type: 'planner.loop',
        at: scope.clock.now(),
        planId: scope.planId,
        similarity: Math.min(...loop.similarities),
        nudge: loop.nudge,
      });
      continue;
    }
    const report = validatePlan(
      { planId: input.plan.planId, intentId: input.plan.intentId, steps: reply.steps },
      scope.registry,
    );
    if (!report.ok) {
      lastReason = `${what} returned an invalid plan: ${report.issues.map((i) => `${i.where}: ${i.message}`).join('; ')}`;
      continue;
    }
    // A step id names one dispatch in the journal and the result: a replacement may not reuse one already run.
    const ran = new Set(scope.dispatched.map((r) => r.step.stepId));
    const reused = report.steps.map((s) => s.step.stepId).filter((id) => ran.has(id));
    if (reused.length > 0) {
      lastReason = `${what} returned steps whose ids were already run in this plan (${reused.join(', ')}); give replacement steps new stepIds`;
      continue;
    }
    return { ok: true, steps: report.steps, escalations };
  }
  const spent =
    escalations >= scope.policy.escalation.budget
      ? `escalation budget of ${scope.policy.escalation.budget} used up`
      : 'escalation ended';
  return { ok: false, escalations, detail: `${spent}; last: ${lastReason}` };
}
