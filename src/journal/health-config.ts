import { z } from 'zod';

export const HealthConfig = z.strictObject({
  /** A runner silent this long while its process lives is a zombie. */
  runnerHeartbeatTimeoutMs: z.number().int().positive().default(30_000),
  /** An in-progress step with no runner recorded is orphaned after this long without a change. */
  orphanedStepTimeoutMs: z.number().int().positive().default(60_000),
  /** An attempt still open this long past its step's deadline is hanging. */
  hangingGraceMs: z.number().int().nonnegative().default(10_000),
  /** After this many interrupted attempts a step is skipped rather than reset. */
  maxRecoveryAttempts: z.number().int().positive().default(3),
  /** Past this many incidents in the last hour, incidents are still recorded but nothing is reset automatically. */
  maxIncidentsPerHour: z.number().int().positive().default(10),
  autoRecover: z.boolean().default(true),
});
export type HealthConfig = z.infer<typeof HealthConfig>;
export type HealthConfigInput = z.input<typeof HealthConfig>;
