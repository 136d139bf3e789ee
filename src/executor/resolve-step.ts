import { PlanStep, type PlanStepInput } from '../contracts/plan-step.js';
import type { AnyCapabilitySpec } from '../registry/capability-spec.js';
import type { CapabilityRegistry } from '../registry/registry.js';

export type ResolvedStepInput =
  { ok: true; step: PlanStep; spec: AnyCapabilitySpec; args: unknown } | { ok: false; detail: string };

/** V1 and V2 (docs/contract.md) for a step the executor made itself (a sub-goal or a fast-path step). */
export function resolveStep(registry: CapabilityRegistry, input: PlanStepInput): ResolvedStepInput {
  const parsed = PlanStep.safeParse(input);
  if (!parsed.success)
    return { ok: false, detail: `step "${input.stepId}" is malformed: ${parsed.error.issues[0]?.message}` };
  const resolution = registry.resolve(parsed.data.type, parsed.data.version);
  if (!resolution.ok) return { ok: false, detail: resolution.message };
  const args = resolution.spec.inputSchema.safeParse(parsed.data.args);
  if (!args.success)
    return {
      ok: false,
      detail: `arguments of "${input.stepId}" do not fit ${resolution.spec.name}: ${args.error.issues[0]?.message}`,
    };
  return { ok: true, step: parsed.data, spec: resolution.spec, args: args.data };
}
