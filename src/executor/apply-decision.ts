import type { RecoveryDecision } from '../recovery/strategy.js';
import type { StepOutcome } from './events.js';
import { performUnstuck, recoveryContext, targetOf } from './repair.js';
import { type RunScope, sleep } from './scope.js';
import type { StepInput } from './step-input.js';

type Failure = Extract<StepOutcome, { ok: false }>;

export type Applied =
  | { stop: StepOutcome; decision?: undefined; label?: undefined }
  | { stop?: undefined; decision: RecoveryDecision; label: string };

/**
 * Carries out one rung of the recovery ladder before the next attempt. Rungs
 * this executor cannot perform (a free-form sub-goal, a teleport) are reported
 * unresolved at once so the ladder moves on; escalation, abort and pause end
 * the step so the plan runner (or the operator) takes over.
 */
export async function applyDecision(
  scope: RunScope,
  input: StepInput,
  first: RecoveryDecision,
  failure: Failure,
): Promise<Applied> {
  let decision = first;
  for (;;) {
    const { action } = decision;
    switch (action.kind) {
      case 'retry':
        await sleep(scope, Math.min(action.delayMs, Math.max(0, (input.deadlineCap ?? Infinity) - scope.clock.now())));
        return { decision, label: `retry after ${action.delayMs} ms` };
      case 'repath':
        // The goal stays as asked: a looser goal is the planner's call (a step with an explicit range), never a rung's.
        return { decision, label: 'repath: a fresh path search to the goal as asked' };
      case 'unstuck': {
        const moved = await performUnstuck(scope, action.move, input.step.stepId, input.deadlineCap ?? Infinity, targetOf(input.args));
        return { decision, label: `unstuck: ${action.move}${moved ? '' : ' (not possible here)'}` };
      }
      case 'escalate':
        return { stop: { ...failure, detail: `${failure.detail}; local recovery tried: ${action.tried.join(', ') || 'nothing fitting'}` } };
      case 'abort':
        return { stop: { ok: false, code: action.code, detail: action.reason } };
      case 'pause':
        return { stop: { ...failure, detail: `${failure.detail}; ${action.reason}` } };
      case 'subgoal':
      case 'teleport': {
        const next = scope.ladder.report(decision, { resolved: false }, recoveryContext(scope, input.spec.name, true));
        if (!next) return { stop: failure };
        decision = next;
      }
    }
  }
}
