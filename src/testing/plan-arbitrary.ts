import fc from 'fast-check';
import type { PlanInput } from '../contracts/plan.js';
import type { PlanStepInput } from '../contracts/plan-step.js';
import type { CapabilityRegistry } from '../registry/registry.js';
import { arbitraryFor } from './arbitrary.js';

/** A valid step for one of the registry's verbs, with arguments drawn from that capability's own schema. */
export function stepArbitrary(registry: CapabilityRegistry): fc.Arbitrary<Omit<PlanStepInput, 'stepId'>> {
  const perVerb = registry.verbs().map((verb) => {
    const resolution = registry.resolve(verb);
    if (!resolution.ok) throw new Error(`registry lists ${verb} but cannot resolve it`);
    return arbitraryFor(resolution.spec.inputSchema).map((args) => ({
      type: verb,
      args: args as Record<string, unknown>,
    }));
  });
  return fc.oneof(...perVerb);
}

/** A valid plan of 1..maxSteps steps over the registry's verbs, with unique step ids. */
export function planArbitrary(registry: CapabilityRegistry, maxSteps = 8): fc.Arbitrary<PlanInput> {
  return fc.array(stepArbitrary(registry), { minLength: 1, maxLength: maxSteps }).map((steps) => ({
    planId: 'plan-generated',
    intentId: 'intent-generated',
    steps: steps.map((step, index) => ({ stepId: `s${index + 1}`, ...step })),
  }));
}
