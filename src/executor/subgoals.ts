import type { FailureCode } from '../contracts/failure-codes.js';
import type { PlanStepInput } from '../contracts/plan-step.js';
import type { Observation } from '../contracts/world.js';
import { describe, errorText } from './user-code.js';
import type { GuardResult } from '../registry/capability-spec.js';
import { resolveStep } from './resolve-step.js';
import { nestedStepId, type RunScope } from './scope.js';
import type { StepInput } from './step-input.js';

/**
 * Runs the steps a capability declares would satisfy its missing precondition
 * (e.g. craft sticks before a stone axe), each as a full step one level deeper.
 */
export async function runSubgoals(
  scope: RunScope,
  input: StepInput,
  guard: Extract<GuardResult, { ok: false }>,
  observation: Observation,
): Promise<{ ok: true } | { ok: false; code?: FailureCode; detail: string }> {
  const missing = guard.missing!;
  let planned: unknown;
  try {
    planned = input.spec.subgoals?.(missing, input.args, { world: scope.world, observation }) ?? null;
  } catch (error) {
    return { ok: false, code: 'runner_error', detail: `${input.spec.name}.subgoals threw: ${errorText(error)}` };
  }
  if (planned !== null && !Array.isArray(planned)) {
    return {
      ok: false,
      code: 'runner_error',
      detail: `${input.spec.name}.subgoals returned ${describe(planned)}; it must return an array of plan steps or null`,
    };
  }
  if (!planned || planned.length === 0)
    return { ok: false, detail: `no sub-goal can satisfy ${missing.predicate} ${JSON.stringify(missing.detail)}` };
  const steps = (planned as PlanStepInput[]).map((sub) => ({
    ...sub,
    stepId: nestedStepId(scope, `${input.step.stepId}/${sub.stepId}`),
  }));
  scope.emit({
    type: 'step.subgoal',
    at: scope.clock.now(),
    planId: scope.planId,
    stepId: input.step.stepId,
    verb: input.spec.name,
    reason: guard.reason,
    missing,
    subgoalStepIds: steps.map((s) => s.stepId),
  });
  for (const sub of steps) {
    const resolved = resolveStep(scope.registry, sub);
    if (!resolved.ok) return { ok: false, detail: `sub-goal ${sub.stepId} is invalid: ${resolved.detail}` };
    const record = await scope.runStep({
      step: resolved.step,
      spec: resolved.spec,
      args: resolved.args,
      depth: input.depth + 1,
      parentStepId: input.step.stepId,
      preemptible: input.preemptible,
      ...(input.combat ? { combat: input.combat } : {}),
      ...(input.deadlineCap !== undefined ? { deadlineCap: input.deadlineCap } : {}),
      ...(input.onFirstAction ? { onFirstAction: input.onFirstAction } : {}),
    });
    if (!record.outcome.ok)
      return {
        ok: false,
        detail: `sub-goal ${sub.stepId} failed with ${record.outcome.code}: ${record.outcome.detail}`,
      };
  }
  return { ok: true };
}
