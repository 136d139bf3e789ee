import { z } from 'zod';
import { INPUT_LIMITS } from './limits.js';
import { PlanStep, SafetyOverride } from './plan-step.js';

export const Plan = z.strictObject({
  planId: z.string().min(1).max(INPUT_LIMITS.maxIdLength),
  intentId: z.string().min(1).max(INPUT_LIMITS.maxIdLength),
  steps: z
    .array(PlanStep)
    .min(1, 'a plan needs at least one step; an empty plan has nothing to verify')
    .max(INPUT_LIMITS.maxSteps),
  /** The combat policy for every step of this plan; a step's own `safety` wins over it. */
  safety: SafetyOverride.optional(),
});
export type Plan = z.infer<typeof Plan>;
export type PlanInput = z.input<typeof Plan>;
