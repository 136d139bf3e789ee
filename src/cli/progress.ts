import type { ExecutorEvent, PlanResult } from '../executor/events.js';
import { describeProgress } from '../executor/progress-throttle.js';
import { describeExpectation } from '../contracts/expectation.js';
import { newTable } from './table.js';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

/** One human line per event worth a person's attention, as it happens; null for the rest. */
export function progressLine(event: ExecutorEvent): string | null {
  const step = 'stepId' in event && event.stepId ? `${event.stepId} (${'verb' in event ? event.verb : ''})` : '';
  switch (event.type) {
    case 'plan.accepted':
      return `▶ plan ${event.planId}: ${event.steps} step${event.steps === 1 ? '' : 's'} accepted${event.warnings.length ? `, ${event.warnings.length} warning(s)` : ''}`;
    case 'plan.rejected':
      return `✗ plan ${event.planId} rejected: ${event.code}${event.issues.length ? `\n${event.issues.map((i) => `    ${i.where}: ${i.message}`).join('\n')}` : ''}`;
    case 'step.started':
      return `  ${event.parentStepId ? '  ↳ ' : ''}… ${step} started`;
    case 'step.firstAction':
      return `    ${step} first action "${event.command}" after ${event.ttfaMs.toFixed(0)} ms (TTFA)`;
    case 'step.retry':
      return `    ↻ ${step} retry ${event.attempt - 1} in ${event.delayMs} ms after ${event.code}: ${event.detail}`;
    case 'step.repair':
      return `    ⚒ ${step} repair "${event.strategy}" after ${event.code}`;
    case 'step.subgoal':
      return `    ${step} guard: ${event.reason} → sub-goals ${event.subgoalStepIds.join(', ')}`;
    case 'step.preempted':
      return `    ⚠ ${step} preempted by ${event.by}: ${event.reason}`;
    case 'step.resumed':
      return `    ${step} resumed after ${event.after}`;
    case 'step.refused':
      return `    ${step} not started: idempotency key "${event.idempotencyKey}" ${event.state === 'completed' ? 'was completed' : 'is in flight'} by ${event.holder.stepId} of plan ${event.holder.planId}`;
    case 'step.deduplicated':
      return `    ${step} not started again: idempotency key "${event.idempotencyKey}" was completed by ${event.holder.stepId} of plan ${event.holder.planId}, and its effects hold now`;
    case 'step.progress':
      // Every report is in --json; a line only for the one that completes the count, so a long walk does not flood.
      return event.total !== undefined && event.done >= event.total ? `    ${step} ${describeProgress(event)}` : null;
    case 'step.stuck':
      return `    ⚠ ${step} stuck (${event.detector}): ${event.reason}`;
    case 'step.warning':
      return `    ! ${step} ${event.message}`;
    case 'step.ended':
      return event.outcome.ok
        ? `  ✓ ${step} done in ${seconds(event.durationMs)}${event.attempts > 1 ? ` after ${event.attempts} attempts` : ''}${event.outcome.deduplicated ? ' (already done)' : ''}`
        : `  ✗ ${step} failed in ${seconds(event.durationMs)}: ${event.outcome.code}: ${event.outcome.detail}`;
    case 'plan.escalated':
      return `  ⇪ escalation ${event.rung} to planner ${event.planner} after ${event.failedStepId} failed with ${event.code}${event.loop ? ' (with a loop nudge)' : ''}`;
    case 'planner.loop':
      return `  ⚠ planner loop: the new plan is ${event.similarity} similar to plans that already failed`;
    case 'safety.emergency':
      return `  ⚠ safety: ${event.signal} (${event.detail}) → ${event.response}`;
    case 'incident':
      return `  ! incident ${event.kind}: ${event.detail}`;
    case 'step.expects':
      // A capability judged by its own acceptance alone may expect nothing: its event carries only the world at dispatch.
      if (event.expectations.length === 0) return null;
      return `    ${step} expects: ${event.expectations.map(describeExpectation).join('; ')}`;
    case 'plan.paused':
      return `  ⏸ plan ${event.planId} paused: ${event.reason}`;
    case 'plan.resumed':
      return event.cancelled ? null : `  ▶ plan ${event.planId} resumed`;
    case 'plan.cancelled':
      return `  ■ plan ${event.planId} cancelled: ${event.reason}`;
    case 'plan.replaced':
      return `  ⇄ plan ${event.planId}: the steps after ${event.afterStepId ?? 'the start'} replaced by ${event.steps.map((s) => s.stepId).join(', ') || 'nothing'}`;
    case 'agent.state':
    case 'attempt.started':
    case 'plan.ended':
      return null;
  }
}

/** "repairs 3 (2 defences)": how many repairs, and how many of them were safety taking a step over to defend the bot. */
export function repairsText(result: Pick<PlanResult, 'repairs' | 'defences'>): string {
  const { repairs, defences } = result;
  return defences === 0 ? `repairs ${repairs}` : `repairs ${repairs} (${defences} defence${defences === 1 ? '' : 's'})`;
}

/** The end-of-run table: one row per step the plan dispatched. */
export function summaryTable(result: PlanResult): string {
  const table = newTable({ head: ['step', 'verb', 'outcome', 'TTFA', 'time', 'attempts'] });
  for (const record of result.steps) {
    table.push([
      record.parentStepId ? `  ↳ ${record.step.stepId}` : record.step.stepId,
      record.step.type,
      record.outcome.ok ? (record.outcome.deduplicated ? 'ok (already done)' : 'ok') : record.outcome.code,
      record.ttfaMs === null ? '–' : `${record.ttfaMs.toFixed(0)} ms`,
      seconds(record.durationMs),
      String(record.attempts),
    ]);
  }
  const verdict = result.ok
    ? `✓ plan ${result.planId} succeeded: every step verified as asked against the world`
    : `✗ plan ${result.planId} failed: ${result.code}: ${result.detail}`;
  return `${table.toString()}\n${verdict} in ${seconds(result.durationMs)} (retries ${result.retries}, ${repairsText(result)}, escalations ${result.escalations})`;
}
