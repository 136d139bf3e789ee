import type { FailureCode } from '../contracts/failure-codes.js';
import { Intent } from '../contracts/intent.js';
import type { ValidationIssue } from '../validate/issue.js';
import { validatePlan, type ValidationReport } from '../validate/validate-plan.js';
import { type ExecutorEvent, failedRun, type PlanResult } from './events.js';
import { callPlanner } from './planner-call.js';
import { beginRunAs, moveAgent } from './scope.js';
import type { Stream } from './stream.js';

/** A rejected plan's detail names this many of its issues. */
const MAX_ISSUES_IN_DETAIL = 20;

/** A run let in: its plan validated (planned first, when it came as an intent), `plan.accepted` emitted. */
export type Admission =
  { ok: true; report: Extract<ValidationReport, { ok: true }>; intent?: Intent } | { ok: false; result: PlanResult };

/**
 * Phase 1, before anything moves: an intent is checked and planned, and the
 * plan passes `validatePlan` whole, or the run ends rejected with every issue
 * (`plan.rejected`, then `plan.ended`).
 */
export async function admit(
  stream: Stream,
  input: unknown,
  record: (event: ExecutorEvent) => void,
): Promise<Admission> {
  let intent: Intent | undefined;
  let planInput = input;
  if (input && typeof input === 'object' && 'goal' in input) {
    const planned = await planIntent(stream, input, record);
    if (!planned.ok) return planned;
    intent = planned.intent;
    planInput = planned.plan;
  }
  const report = validatePlan(planInput, stream.options.registry);
  if (!report.ok) {
    const planId = (planInput as { planId?: unknown } | null)?.planId;
    // The first issues only: a huge plan can have a million, and this line is printed and journaled.
    const shown = report.issues.slice(0, MAX_ISSUES_IN_DETAIL).map((i) => `${i.where}: ${i.code}: ${i.message}`);
    const more = report.issues.length - shown.length;
    const detail = `${shown.join('; ')}${more > 0 ? `; … and ${more} more issues (plan.rejected lists them all)` : ''}`;
    const id = typeof planId === 'string' ? planId : '(plan)';
    return reject(stream, record, id, report.issues[0]!.code, detail, report.issues);
  }
  stream.metrics.recordPlan();
  record({
    type: 'plan.accepted',
    at: stream.clock.now(),
    planId: report.plan.planId,
    intentId: report.plan.intentId,
    steps: report.steps.length,
    resolved: report.steps.map(({ step, spec, args }) => ({
      stepId: step.stepId,
      type: spec.name,
      version: spec.version,
      args,
      ...(step.idempotencyKey ? { idempotencyKey: step.idempotencyKey } : {}),
    })),
    warnings: report.warnings,
  });
  return { ok: true, report, ...(intent ? { intent } : {}) };
}

/** An intent, checked (and refused when its safety says so), planned by the first planner that plans. */
async function planIntent(
  stream: Stream,
  input: object,
  record: (event: ExecutorEvent) => void,
): Promise<{ ok: true; intent: Intent; plan: unknown } | { ok: false; result: PlanResult }> {
  const parsed = Intent.safeParse(input);
  if (!parsed.success)
    return reject(stream, record, '(intent)', 'schema_violation', `invalid intent: ${parsed.error.issues[0]?.message}`);
  const intent = parsed.data;
  if (!intent.safety.allowed) {
    const why = intent.safety.reason ?? 'safety.allowed is false';
    return reject(stream, record, intent.id, 'intent_refused', `intent ${intent.id} refused: ${why}`);
  }
  const planner = stream.planners.find((p) => p.plan !== undefined);
  if (!planner?.plan) {
    const fix = 'an intent needs a planner with plan(); pass `planner` to createExecutor or run a plan';
    return reject(stream, record, intent.id, 'schema_violation', fix);
  }
  const { agent, clock, policy } = stream;
  beginRunAs({ agent, emit: record, planId: intent.id, clock }, 'PLANNING', `planning intent ${intent.id}`);
  const planned = await callPlanner(clock, `planner ${planner.name}.plan`, policy.escalation.plannerTimeoutMs, () =>
    planner.plan!(intent),
  );
  if (!planned.ok) return reject(stream, record, intent.id, 'planner_error', planned.detail);
  return { ok: true, intent, plan: planned.value };
}

/** A run refused before its first step: `plan.rejected`, then `plan.ended` with the empty failed result. */
function reject(
  stream: Stream,
  record: (event: ExecutorEvent) => void,
  planId: string,
  code: FailureCode,
  detail: string,
  issues: ValidationIssue[] = [],
): { ok: false; result: PlanResult } {
  const { agent, clock } = stream;
  record({ type: 'plan.rejected', at: clock.now(), planId, code, issues });
  const result = failedRun(planId, code, detail);
  // A run that got as far as planning ends FAILED; one refused at the door leaves the agent as it was.
  if (agent.state === 'PLANNING') moveAgent({ agent, emit: record, planId, clock }, 'FAILED', detail);
  record({ type: 'plan.ended', at: clock.now(), planId, result });
  return { ok: false, result };
}
