import type { RecoveryDecision } from '../recovery/strategy.js';
import type { StepOutcome } from './events.js';
import { helperParentOf } from './fast-path.js';
import { performReach, performUnstuck, recoveryContext } from './repair.js';
import { type FailureSituation, targetOf } from './repair-fit.js';
import { type RunScope, sleep } from './scope.js';
import type { StepInput } from './step-input.js';

type Failure = Extract<StepOutcome, { ok: false }>;

export type Applied =
  | { stop: StepOutcome; decision?: undefined; label?: undefined }
  | { stop?: undefined; decision: RecoveryDecision; label: string };

/**
 * Carries out one rung of the recovery ladder before the next attempt. A
 * teleport, which this executor cannot perform, is reported unresolved at once
 * so the ladder moves on; the sub-goal rung builds up to a goal above the
 * ground; escalation, abort and pause end the step so the plan runner (or the
 * operator) takes over.
 */
export async function applyDecision(
  scope: RunScope,
  input: StepInput,
  first: RecoveryDecision,
  failure: Failure,
  situation?: Omit<FailureSituation, 'verbs'>,
): Promise<Applied> {
  let decision = first;
  for (;;) {
    // Dead, the bot is elsewhere: no rung applies (its step ends `died`, deaths.ts).
    if (scope.deaths.inPlanStep()) return { stop: failure };
    const applied = await applyRung(scope, input, decision, failure);
    if (applied !== NEXT_RUNG) return applied;
    const next = scope.ladder.report(decision, { resolved: false }, recoveryContext(scope, input.spec.name, situation));
    if (!next) return { stop: failure };
    decision = next;
  }
}

/** A rung that changed nothing (an unstuck move that moved nothing, a teleport this executor cannot do): on to the next at once. */
const NEXT_RUNG = Symbol('next rung');

async function applyRung(
  scope: RunScope,
  input: StepInput,
  decision: RecoveryDecision,
  failure: Failure,
): Promise<Applied | typeof NEXT_RUNG> {
  const { action } = decision;
  const deadlineCap = input.deadlineCap ?? Infinity;
  // Its unstuck and reach moves run as steps under the step's deadline and combat policy.
  const parent = helperParentOf(input, deadlineCap);
  switch (action.kind) {
    case 'retry':
      await sleep(scope, Math.min(action.delayMs, Math.max(0, deadlineCap - scope.clock.now())));
      return { decision, label: `retry after ${action.delayMs} ms` };
    case 'repath':
      // The goal stays as asked: a looser goal is the planner's call (a step with an explicit range), never a rung's.
      return { decision, label: 'repath: a fresh path search to the goal as asked' };
    case 'unstuck': {
      // A move that changed nothing would only buy the same attempt again.
      const changed = await performUnstuck(scope, action.move, input.step.stepId, parent, targetOf(input.args));
      return changed ? { decision, label: `unstuck: ${action.move}` } : NEXT_RUNG;
    }
    case 'escalate':
      return {
        stop: {
          ...failure,
          detail: `${failure.detail}; local recovery tried: ${action.tried.join(', ') || 'nothing fitting'}`,
        },
      };
    case 'abort':
      return { stop: { ok: false, code: action.code, detail: action.reason } };
    case 'pause':
      return { stop: { ...failure, detail: `${failure.detail}; ${action.reason}` } };
    case 'subgoal': {
      // The one sub-goal this executor can carry out itself: build up to a goal above the ground.
      const reached = await performReach(scope, input.step.stepId, parent, targetOf(input.args));
      return { decision, label: reached.label };
    }
    case 'teleport':
      return NEXT_RUNG;
    case 'branch':
      // Branch exploration ran its way out before the ladder recorded it (branch-stage.ts): nothing is left to do.
      return { decision, label: `branch: ${action.label}` };
  }
}
