import { z } from 'zod';
import { INPUT_LIMITS } from './limits.js';

export const IntentSource = z.enum(['user', 'system', 'memory']);

export const Intent = z.strictObject({
  id: z.string().min(1).max(INPUT_LIMITS.maxIdLength),
  source: IntentSource,
  goal: z.string().min(1).max(INPUT_LIMITS.maxStringLength),
  context: z.record(z.string(), z.unknown()).default({}),
  urgency: z.number().min(0).max(1),
  safety: z.strictObject({ allowed: z.boolean(), reason: z.string().optional() }),
  timeBudgetMs: z.number().positive().optional(),
  provenanceRef: z.string().optional(),
});
export type Intent = z.infer<typeof Intent>;
export type IntentInput = z.input<typeof Intent>;
