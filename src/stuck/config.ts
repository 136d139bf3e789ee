import { z } from 'zod';

const ms = z.number().int('must be a whole number of milliseconds').positive('must be > 0 ms');
const blocks = z.number().positive('must be > 0 blocks');

/**
 * Detector thresholds; docs/contract.md ("Stuck detectors") gives each default and
 * the test that shows it: at 20 TPS, 100 ticks (5 s) without moving, 200 ticks
 * (10 s) without progress, 3 path failures in a row, more than 3 seconds without an
 * actuator command (A4), more than 3 reversals within 10 s (FM-04). Every
 * threshold trips strictly after it is exceeded, so "100 ticks" means the 101st trips.
 */
export const StuckDetectionConfigSchema = z.strictObject({
  /** The executor's tick period; only used to express thresholds in ticks in reasons. */
  tickMs: ms.default(50),
  position: z
    .strictObject({
      thresholdMs: ms.default(5_000),
      /** Moving less than this from the anchor does not count as movement (sensor jitter). */
      epsilonBlocks: blocks.default(0.1),
    })
    .prefault({}),
  state: z
    .strictObject({
      /** Per-state timeouts; a state missing here never times out. */
      timeoutsMs: z.record(z.string().min(1), ms).default({ PLANNING: 30_000, EXECUTING: 60_000, RECOVERING: 15_000 }),
    })
    .prefault({}),
  progress: z
    .strictObject({
      stallMs: ms.default(10_000),
      /** A report must beat the best so far by more than this to count as a gain. */
      minGain: z.number().nonnegative('must be >= 0').default(0),
    })
    .prefault({}),
  path: z
    .strictObject({
      maxConsecutiveFailures: z.number().int().min(1, 'must be at least 1').default(3),
    })
    .prefault({}),
  flap: z
    .strictObject({
      /** Trips on the reversal after this many within the window. */
      maxReversals: z.number().int().min(1, 'must be at least 1').max(16, 'must be at most 16').default(3),
      windowMs: ms.default(10_000),
      /** Net horizontal displacement over the reversals below which the path counts as flapping. */
      minNetDisplacementBlocks: blocks.default(1),
      /** Horizontal distance walked before a heading is measured (ignores jitter). */
      headingStepBlocks: blocks.default(0.5),
    })
    .prefault({}),
  noActuator: z.strictObject({ limitMs: ms.default(3_000) }).prefault({}),
  heartbeat: z
    .strictObject({
      timeoutMs: ms.default(2_000),
      checkEveryMs: ms.default(500),
    })
    .prefault({}),
  hanging: z
    .strictObject({
      /** Used when a step starts without its own invocation deadline. */
      defaultDeadlineMs: ms.default(60_000),
    })
    .prefault({}),
});

export type StuckDetectionConfig = z.infer<typeof StuckDetectionConfigSchema>;
export type StuckDetectionConfigInput = z.input<typeof StuckDetectionConfigSchema>;

export const DEFAULT_STUCK_DETECTION_CONFIG: StuckDetectionConfig = StuckDetectionConfigSchema.parse({});
