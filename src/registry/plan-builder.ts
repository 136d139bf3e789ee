import type { z } from 'zod';
import type { PlanInput } from '../contracts/plan.js';
import type { PlanStepInput } from '../contracts/plan-step.js';

/** What the builder needs of a capability: its verb, as a literal type, and its input schema. */
export interface NamedSchema {
  readonly name: string;
  readonly inputSchema: z.ZodType;
}

/** Each verb of `Specs` to the arguments its schema takes (a union where two versions of a verb differ). */
export type ArgsByVerb<Specs extends readonly NamedSchema[]> = {
  [S in Specs[number] as S['name']]: z.input<S['inputSchema']>;
};

/** A step's fields besides its verb and arguments (its id defaults to `<verb>-<n>`). */
export type StepOptions = Partial<Omit<PlanStepInput, 'type' | 'args'>>;

/**
 * Builds a plan whose steps are checked by the compiler against the capabilities' own schemas: an unknown
 * verb, a missing argument or one of the wrong type does not compile. The plan is still validated when it
 * runs, as any plan is (ranges, limits, the registry's versions).
 */
export class PlanBuilder<Args extends Record<string, unknown>> {
  private readonly steps: PlanStepInput[] = [];

  constructor(private readonly ids: { planId: string; intentId: string }) {}

  step<Verb extends keyof Args & string>(verb: Verb, args: Args[Verb], options: StepOptions = {}): this {
    const stepId = options.stepId ?? `${verb}-${this.steps.length + 1}`;
    this.steps.push({ ...options, stepId, type: verb, args: args as Record<string, unknown> });
    return this;
  }

  build(): PlanInput {
    return { ...this.ids, steps: [...this.steps] };
  }
}

/**
 * A plan builder typed from capability specs, e.g. `planBuilder(BUILTIN_CAPABILITIES, { planId, intentId })`
 * with `verbtree/capabilities`' tuple, or your own `[wave, ...BUILTIN_CAPABILITIES] as const`.
 */
export function planBuilder<const Specs extends readonly NamedSchema[]>(
  _specs: Specs,
  ids: { planId: string; intentId: string },
): PlanBuilder<ArgsByVerb<Specs>> {
  return new PlanBuilder<ArgsByVerb<Specs>>(ids);
}
