import { z } from 'zod';
import { FAILURE_CODE_LIST, type FailureCode } from './failure-codes.js';

export const ActionError = z.strictObject({
  code: z.enum(FAILURE_CODE_LIST as [FailureCode, ...FailureCode[]]),
  detail: z.string().optional(),
  retryable: z.boolean().optional(),
});
export type ActionError = z.infer<typeof ActionError>;

export const ActionResult = z.strictObject({
  ok: z.boolean(),
  error: ActionError.optional(),
  startedAt: z.number(),
  endedAt: z.number(),
  observables: z.record(z.string(), z.unknown()).optional(),
});
export type ActionResult = z.infer<typeof ActionResult>;
