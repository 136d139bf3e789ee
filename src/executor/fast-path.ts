import type { StepRecord } from './events.js';
import { resolveStep } from './resolve-step.js';
import type { SafetySignal } from './safety.js';
import { nestedStepId, type RunScope } from './scope.js';

/**
 * Runs a step the executor itself decided on (a safety response or an unstuck
 * move) as a full step under `parentStepId`; null when the verb is not
 * registered or its guard refuses it here.
 */
export async function runHelperStep(
  scope: RunScope,
  verb: string,
  args: Record<string, unknown>,
  parentStepId: string,
  tag: string,
  deadlineCap?: number,
): Promise<StepRecord | null> {
  const resolved = resolveStep(scope.registry, {
    stepId: nestedStepId(scope, `${parentStepId}/${tag}-${verb}`),
    type: verb,
    args,
  });
  if (!resolved.ok) return null;
  const observation = await scope.world.observe();
  if (!resolved.spec.guard({ world: scope.world, observation }, resolved.args).ok) return null;
  return scope.runStep({
    step: resolved.step,
    spec: resolved.spec,
    args: resolved.args,
    depth: 0,
    parentStepId,
    preemptible: false,
    ...(deadlineCap !== undefined ? { deadlineCap } : {}),
  });
}

/** Safety > goal: runs the first fast-path capability whose guard holds for the signal. */
export async function runFastPath(scope: RunScope, threat: SafetySignal, interruptedStepId: string): Promise<void> {
  for (const response of threat.responses) {
    const resolved = resolveStep(scope.registry, { stepId: 'probe', type: response.verb, args: response.args });
    if (
      !resolved.ok ||
      !resolved.spec.guard({ world: scope.world, observation: await scope.world.observe() }, resolved.args).ok
    )
      continue;
    scope.emit({
      type: 'safety.emergency',
      at: scope.clock.now(),
      planId: scope.planId,
      signal: threat.signal,
      detail: threat.detail,
      response: response.verb,
    });
    const record = await runHelperStep(scope, response.verb, response.args, interruptedStepId, 'safety');
    const hazard = threat.signal === 'hazard' ? scope.safety.hazardHere() : null;
    if (record && !record.outcome.ok && hazard) {
      // The way out failed and the bot still burns: say where, not only how the walk failed.
      const { code, detail } = record.outcome;
      scope.emit({
        type: 'safety.emergency',
        at: scope.clock.now(),
        planId: scope.planId,
        signal: 'hazard',
        detail: `still ${hazard}: ${response.verb} failed with ${code} (${detail})`,
        response: 'failed',
      });
    }
    return;
  }
  scope.emit({
    type: 'safety.emergency',
    at: scope.clock.now(),
    planId: scope.planId,
    signal: threat.signal,
    detail: threat.detail,
    response: 'none available',
  });
}
