import type { FailureCode } from '../contracts/failure-codes.js';
import type { Intent } from '../contracts/intent.js';
import type { Plan } from '../contracts/plan.js';
import { PlannerLoopDetector } from '../recovery/planner-loop.js';
import { validatePlan, type ResolvedStep } from '../validate/validate-plan.js';
import type { ExecutorEvent, PlanResult, StepRecord } from './events.js';
import { observeWithin } from './observe.js';
import type { Planner, PlannerReply } from './planner.js';
import { callPlanner, checkReply } from './planner-call.js';
import type { RunControl } from './run-control.js';
import { moveAgent, type RunScope } from './scope.js';
import { executeStep } from './step-executor.js';

export interface PlanRunInput {
  plan: Plan;
  steps: ResolvedStep[];
  intent?: Intent;
  /** Ordered weakest to strongest; the escalation ladder climbs them. */
  planners: readonly Planner[];
}

type StepFailure = Extract<StepRecord['outcome'], { ok: false }>;
type Evidence = (stepId: string) => ExecutorEvent[];

/** The plan's escalations so far, and the failed plans a planner's reply must not repeat. */
interface Escalations {
  count: number;
  readonly loops: PlannerLoopDetector;
}

/** Where a failed step's escalation stands: what failed, what ran before it, what was still queued. */
interface EscalationState {
  failure: StepFailure;
  record: StepRecord;
  records: readonly StepRecord[];
  queue: readonly ResolvedStep[];
  escalations: Escalations;
}

type Replacement = { ok: true; steps: ResolvedStep[] } | { ok: false; code: FailureCode; detail: string };

/**
 * Runs a validated plan's steps one at a time (I1 in docs/contract.md). When a step fails past
 * local repair, climbs the escalation ladder (I3, phase 8): ask the planner again with the
 * failure and its evidence, then a stronger planner, within the plan's budget;
 * then stop with `escalation_exhausted`.
 */
export async function runPlan(
  scope: RunScope,
  input: PlanRunInput,
  collectEvidence: Evidence,
  control: RunControl,
): Promise<PlanResult> {
  const startedAt = scope.clock.now();
  const records: StepRecord[] = [];
  const queue = [...input.steps];
  const { loopSimilarity, loopWindow } = scope.policy.escalation;
  const escalations: Escalations = {
    count: 0,
    loops: new PlannerLoopDetector({ similarityThreshold: loopSimilarity, window: loopWindow, maxHistory: 10 }),
  };
  const end = (failure?: { code: FailureCode; detail: string }) =>
    planResult(scope, input.plan.planId, startedAt, escalations.count, failure);
  for (;;) {
    const next = await control.nextStep(queue, records.at(-1)?.step.stepId ?? null);
    if (!next) return end();
    if (scope.signal.aborted)
      return end(
        scope.halted ?? {
          code: 'aborted',
          detail: `cancelled before ${next.step.stepId}: ${String(scope.signal.reason ?? 'the run was cancelled')}`,
        },
      );
    scope.ladder.beginStep();
    const combat = { ...input.plan.safety, ...next.step.safety };
    const record = await executeStep(scope, { ...next, depth: 0, preemptible: true, combat });
    records.push(record);
    // The journal lost (a step's end, a key or an attempt not durable): no further step starts, no planner is asked.
    if (scope.halted) return end(scope.halted);
    if (record.outcome.ok) continue;
    const failure = record.outcome;
    if (failure.code === 'aborted' || input.planners.length === 0) return end(failure);
    const replaced = await escalate(scope, input, { failure, record, records, queue, escalations }, collectEvidence);
    if (!replaced.ok) return end(replaced);
    queue.splice(0, queue.length, ...replaced.steps);
  }
}

/** The plan's result: every step it dispatched (nested ones too), and totals over all of them. */
function planResult(
  scope: RunScope,
  planId: string,
  startedAt: number,
  escalations: number,
  failure?: { code: FailureCode; detail: string },
): PlanResult {
  // Totals count every dispatched step, the sub-goals and repair steps too.
  const sum = (key: 'retries' | 'repairs' | 'defences') => scope.dispatched.reduce((total, r) => total + r[key], 0);
  return {
    planId,
    ok: failure === undefined,
    ...(failure ? { code: failure.code, detail: failure.detail } : {}),
    steps: [...scope.dispatched],
    escalations,
    retries: sum('retries'),
    repairs: sum('repairs'),
    defences: sum('defences'),
    durationMs: scope.clock.now() - startedAt,
  };
}

/** Phase 8: the agent goes PLANNING while the planners are asked; a spent ladder is an incident. */
async function escalate(
  scope: RunScope,
  input: PlanRunInput,
  state: EscalationState,
  collectEvidence: Evidence,
): Promise<Replacement> {
  const { record, failure, queue } = state;
  state.escalations.loops.recordFailed(
    { steps: [record.step, ...queue.map((q) => q.step)] },
    `${record.step.stepId} (${record.step.type}) failed with ${failure.code}`,
  );
  moveAgent(scope, 'PLANNING', `escalating ${record.step.stepId}: ${failure.code}`);
  const replacement = await climbPlanners(scope, input, state, collectEvidence);
  if (!replacement.ok) {
    scope.emit({
      type: 'incident',
      at: scope.clock.now(),
      planId: scope.planId,
      kind: 'escalation_exhausted',
      detail: replacement.detail,
      stepId: record.step.stepId,
    });
    return replacement;
  }
  moveAgent(scope, 'EXECUTING', `the planner sent ${replacement.steps.length} new step(s)`);
  return replacement;
}

/**
 * Asks the planners, weakest first, within the plan's escalation budget, until
 * one sends a valid replacement; a planner that misbehaves ends it `planner_error`.
 */
async function climbPlanners(
  scope: RunScope,
  input: PlanRunInput,
  state: EscalationState,
  collectEvidence: Evidence,
): Promise<Replacement> {
  const { escalations } = state;
  let nudge: string | undefined;
  let lastReason = `${state.record.step.stepId} failed with ${state.failure.code}: ${state.failure.detail}`;
  while (escalations.count < scope.policy.escalation.budget && !scope.signal.aborted) {
    escalations.count++;
    const planner = input.planners[Math.min(escalations.count - 1, input.planners.length - 1)]!;
    const answered = await askPlanner(scope, input, state, planner, collectEvidence, nudge);
    if (!answered.ok) return answered;
    const reply = answered.reply;
    if ('giveUp' in reply) {
      lastReason = `planner ${planner.name} gave up: ${reply.giveUp}`;
      // A give-up is the planner's final word, unless the policy sends the failure on to a stronger planner.
      if (!scope.policy.escalation.strongerAfterGiveUp || escalations.count >= input.planners.length) break;
      continue;
    }
    const accepted = acceptReply(scope, input, state, planner, reply);
    if (accepted.ok) return accepted;
    lastReason = accepted.reason;
    nudge = accepted.nudge ?? nudge;
  }
  const { budget } = scope.policy.escalation;
  const spent = escalations.count >= budget ? `escalation budget of ${budget} used up` : 'escalation ended';
  return { ok: false, code: 'escalation_exhausted', detail: `${spent}; last: ${lastReason}` };
}

/** One rung: `plan.escalated`, an observation for the planner, and its reply (checked for shape). */
async function askPlanner(
  scope: RunScope,
  input: PlanRunInput,
  state: EscalationState,
  planner: Planner,
  collectEvidence: Evidence,
  nudge: string | undefined,
): Promise<{ ok: true; reply: PlannerReply } | { ok: false; code: FailureCode; detail: string }> {
  const { failure, record, records, escalations } = state;
  scope.emit({
    type: 'plan.escalated',
    at: scope.clock.now(),
    planId: scope.planId,
    rung: escalations.count,
    planner: planner.name,
    code: failure.code,
    failedStepId: record.step.stepId,
    loop: nudge !== undefined,
  });
  const what = `planner ${planner.name}`;
  const observed = await observeWithin(scope, {}, 'for the planner');
  if (!observed.ok) return { ok: false, code: observed.code, detail: observed.detail };
  const answered = await callPlanner(scope.clock, `${what}.onFailure`, scope.policy.escalation.plannerTimeoutMs, () =>
    planner.onFailure({
      ...(input.intent ? { intent: input.intent } : {}),
      plan: input.plan,
      failedStep: record.step,
      failure: { code: failure.code, detail: failure.detail, ...(failure.unmet ? { unmet: failure.unmet } : {}) },
      evidence: collectEvidence(record.step.stepId),
      completedStepIds: records.filter((r) => r.outcome.ok).map((r) => r.step.stepId),
      observation: observed.observation,
      rung: escalations.count,
      ...(nudge ? { nudge } : {}),
    }),
  );
  const checked = answered.ok ? checkReply(`${what}.onFailure`, answered.value) : answered;
  if (!checked.ok) return { ok: false, code: 'planner_error', detail: checked.detail };
  return { ok: true, reply: checked.value };
}

/**
 * A planner's new steps are taken when they are not a loop of plans that
 * already failed (`planner.loop`, and the next rung is nudged), validate as a
 * plan, and reuse no step id already run.
 */
function acceptReply(
  scope: RunScope,
  input: PlanRunInput,
  state: EscalationState,
  planner: Planner,
  reply: Extract<PlannerReply, { steps: unknown }>,
): { ok: true; steps: ResolvedStep[] } | { ok: false; reason: string; nudge?: string } {
  const what = `planner ${planner.name}`;
  const loop = state.escalations.loops.check({
    steps: reply.steps.map((step) => ({ type: step.type, args: step.args ?? {} })),
  });
  if (loop) {
    scope.emit({
      type: 'planner.loop',
      at: scope.clock.now(),
      planId: scope.planId,
      similarity: Math.min(...loop.similarities),
      nudge: loop.nudge,
    });
    const reason = `${what} sent a plan ${loop.similarities.join(', ')} similar to the last ${loop.similarities.length} that failed`;
    return { ok: false, reason, nudge: loop.nudge };
  }
  const { planId, intentId } = input.plan;
  const report = validatePlan({ planId, intentId, steps: reply.steps }, scope.registry);
  if (!report.ok)
    return {
      ok: false,
      reason: `${what} returned an invalid plan: ${report.issues.map((i) => `${i.where}: ${i.message}`).join('; ')}`,
    };
  // A step id names one dispatch in the journal and the result: a replacement may not reuse one already run.
  const ran = new Set(scope.dispatched.map((r) => r.step.stepId));
  const reused = report.steps.map((s) => s.step.stepId).filter((id) => ran.has(id));
  if (reused.length > 0)
    return {
      ok: false,
      reason: `${what} returned steps whose ids were already run in this plan (${reused.join(', ')}); give replacement steps new stepIds`,
    };
  return { ok: true, steps: report.steps };
}
