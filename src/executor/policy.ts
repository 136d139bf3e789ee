import { z } from 'zod';

/**
 * Everything an operator may tune about execution. The defaults are the limits docs/contract.md states, and
 * the names in these comments (A1, A3, A4, I2, FM-02) are its rules.
 */
export const ExecutorPolicy = z.strictObject({
  /** A3: local retries for retryable failures before repair and escalation. */
  maxLocalRetries: z.int().min(0).max(10).default(2),
  /** Same shape as the recovery ladder's retry backoff, so one function computes both. */
  backoff: z
    .strictObject({
      initialDelayMs: z.number().min(0).default(250),
      backoffMultiplier: z.number().min(1).default(2),
      maxDelayMs: z.number().min(0).default(4_000),
      /** Fraction of the delay drawn at random (seeded), so retries of many bots spread out. */
      jitterRatio: z.number().min(0).max(1).default(0.2),
    })
    .prefault({}),
  /** A1: dispatch to first actuator command. */
  ttfaMs: z.number().positive().default(2_000),
  /** A4: `stuck.loop` after this long without an actuator command. */
  noActuatorMs: z.number().positive().default(3_000),
  /** I2: a step's deadline is its expected duration times this factor, at least `minStepTimeoutMs`. */
  stepTimeoutFactor: z.number().min(1).default(3),
  minStepTimeoutMs: z.number().positive().default(5_000),
  tickHz: z.number().positive().max(1_000).default(20),
  /** At most this many `step.progress` events a second per step: enough to watch a step, few enough to journal. */
  progressPerSecond: z.number().positive().max(100).default(4),
  maxSubgoalDepth: z.int().min(0).max(10).default(3),
  /** FM-02: stop when the same guard fails the same way more than this many times. */
  maxSameGuardFailures: z.int().min(1).default(2),
  /** An observation of the world's truth that takes longer than this ends the step `world_unresponsive`. */
  observeTimeoutMs: z.number().positive().default(5_000),
  escalation: z
    .strictObject({
      /** Planner calls per plan before `escalation_exhausted`. */
      budget: z.int().min(0).default(3),
      loopSimilarity: z.number().min(0).max(1).default(0.6),
      loopWindow: z.int().min(1).default(3),
      /** A planner call that has not answered after this long ends the escalation with `planner_error`. */
      plannerTimeoutMs: z.number().positive().default(30_000),
      /** A planner's give-up is final unless this is set: then the next, stronger planner is asked. */
      strongerAfterGiveUp: z.boolean().default(false),
    })
    .prefault({}),
  safety: z
    .strictObject({
      enabled: z.boolean().default(true),
      minHealth: z.number().min(0).max(20).default(6),
      minFood: z.number().min(0).max(20).default(4),
      hostileRadius: z.number().min(0).default(5),
      /**
       * A step the safety monitor took over this many times ends (`preempted`) instead of going back into the threat
       * again: a swarm that follows the bot back to its work would otherwise hold the step between flight and resume
       * for ever, its deadline moving by every pause.
       */
      maxPreemptionsPerStep: z.int().min(1).default(5),
      hazardBlocks: z.array(z.string()).default(['lava', 'fire', 'soul_fire', 'magma_block', 'campfire']),
      /**
       * How a hostile is answered (docs/defense.md): 'auto' fights what the assessment says the bot can beat, and flees
       * or shelters from the rest; 'avoid' never starts a fight. A plan or a step may override it (`safety`).
       */
      combat: z.enum(['auto', 'avoid']).default('auto'),
      /** A fight is started only while its expected damage leaves at least this much health. */
      fightHealthFloor: z.number().min(0).max(20).default(6),
      /** Responses in a row one takeover may run (fight one mob, then the next...) before the step resumes. */
      maxDefenseRounds: z.int().min(1).max(32).default(8),
      /**
       * Foresight (docs/foresight.md): the top responses to a hostile (fight, flee, shelter) are run on forks for
       * `forkBudgetMs` of simulated time each, and the one that ends with the most health and the threats gone is
       * taken. Needs the executor's explorer; off by default (a fork's thread takes real seconds to start).
       */
      compareOnForks: z.boolean().default(false),
      forkBudgetMs: z.int().min(1_000).max(60_000).default(10_000),
    })
    .prefault({}),
  /**
   * Boxes of cells no repair may break (dig out) or build over, e.g. a scenario's structures. A
   * step's own target and the cells that hold it up are always protected.
   */
  protect: z
    .array(
      z.strictObject({
        from: z.strictObject({ x: z.int(), y: z.int(), z: z.int() }),
        to: z.strictObject({ x: z.int(), y: z.int(), z: z.int() }),
      }),
    )
    .default([]),
  /** Intents at least this urgent preempt routine runs in the same stream. */
  urgentIntent: z.number().min(0).max(1).default(0.8),
  seed: z.int().default(1),
});

export type ExecutorPolicy = z.output<typeof ExecutorPolicy>;
export type ExecutorPolicyInput = z.input<typeof ExecutorPolicy>;

/** I2: how long a step may run before `deadline_exceeded`. */
export function stepTimeoutMs(policy: ExecutorPolicy, expectedDurationMs: number): number {
  return Math.max(policy.minStepTimeoutMs, expectedDurationMs * policy.stepTimeoutFactor);
}
