import type { SafetySignal } from './safety.js';
import { resolveStep } from './resolve-step.js';
import type { RunScope } from './scope.js';
import { executeStep } from './step-executor.js';

/** Safety > goal: runs the first fast-path capability whose guard holds for the signal. */
export async function runFastPath(scope: RunScope, threat: SafetySignal, interruptedStepId: string): Promise<void> {
  const observation = await scope.world.observe();
  for (const response of threat.responses) {
    const resolved = resolveStep(scope.registry, { stepId: `${interruptedStepId}/safety-${response.verb}`, type: response.verb, args: response.args });
    if (!resolved.ok || !resolved.spec.guard({ world: scope.world, observation }, resolved.args).ok) continue;
    scope.emit({ type: 'safety.emergency', at: scope.clock.now(), planId: scope.planId, signal: threat.signal, detail: threat.detail, response: response.verb });
    await executeStep(scope, { step: resolved.step, spec: resolved.spec, args: resolved.args, depth: 0, parentStepId: interruptedStepId, preemptible: false });
    return;
  }
  scope.emit({ type: 'safety.emergency', at: scope.clock.now(), planId: scope.planId, signal: threat.signal, detail: threat.detail, response: 'none available' });
}
