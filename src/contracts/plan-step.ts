import semver from 'semver';
import { z } from 'zod';
import { INPUT_LIMITS } from './limits.js';

export const VERB_PATTERN = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

export const SafetyLevel = z.enum(['safe', 'caution', 'restricted']);
export type SafetyLevel = z.infer<typeof SafetyLevel>;

const identifier = z.string().min(1, 'must not be empty').max(INPUT_LIMITS.maxIdLength);

export const PlanStep = z.strictObject({
  stepId: identifier,
  type: z.string().regex(VERB_PATTERN, 'must be a canonical snake_case verb such as "dig_block"'),
  args: z.record(z.string(), z.unknown()).default({}),
  version: z
    .string()
    .refine((range) => semver.validRange(range) !== null, 'must be a semver range such as "^1.2" or "1.0.0"')
    .optional(),
  preconds: z.array(z.string().max(INPUT_LIMITS.maxIdLength)).optional(),
  effects: z.array(z.string().max(INPUT_LIMITS.maxIdLength)).optional(),
  cost: z.number().nonnegative().optional(),
  priority: z.number().optional(),
  safetyLevel: SafetyLevel.optional(),
  expectedDurationMs: z.number().positive().max(86_400_000).optional(),
  idempotencyKey: identifier.optional(),
});
export type PlanStep = z.infer<typeof PlanStep>;
export type PlanStepInput = z.input<typeof PlanStep>;
