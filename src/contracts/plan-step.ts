import semver from 'semver';
import { z } from 'zod';
import { INPUT_LIMITS } from './limits.js';

export const VERB_PATTERN = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

export const SafetyLevel = z.enum(['safe', 'caution', 'restricted']);
export type SafetyLevel = z.infer<typeof SafetyLevel>;

/**
 * How the safety layer may answer hostiles while a plan or a step runs, over the executor's policy
 * (policy.safety.combat and fightHealthFloor): an escort fights, a pacifist run avoids every fight.
 */
export const SafetyOverride = z
  .strictObject({
    combat: z
      .enum(['auto', 'avoid'])
      .optional()
      .describe("'auto' fights what the bot can beat; 'avoid' never starts a fight (flee or shelter instead)."),
    fightHealthFloor: z
      .number()
      .min(0)
      .max(20)
      .optional()
      .describe('The health a fight must be expected to leave the bot with, at least (0 to 20).'),
  })
  .describe("Overrides the executor's combat policy for this plan or step.");
export type SafetyOverride = z.infer<typeof SafetyOverride>;

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
  safety: SafetyOverride.optional(),
});
export type PlanStep = z.infer<typeof PlanStep>;
export type PlanStepInput = z.input<typeof PlanStep>;
