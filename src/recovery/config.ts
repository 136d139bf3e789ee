import { readFile } from 'node:fs/promises';
import { withoutByteOrderMark } from '../json-text.js';
import { z } from 'zod';
import { StuckDetectionConfigSchema } from '../stuck/config.js';
import { STUCK_TYPES, type StuckType } from '../stuck/detection.js';
import { BranchConfigSchema } from './branches.js';
import { STRATEGY_KINDS, UNSTUCK_MOVES, type StrategyKind } from './strategy.js';

const ms = z.number().int('must be a whole number of milliseconds').nonnegative('must be >= 0 ms');
const count = z.number().int('must be a whole number').min(1, 'must be at least 1');
const priority = z.number().int('must be a whole number');
const strategyList = z.array(z.enum(STRATEGY_KINDS)).min(1, 'must name at least one strategy');

/**
 * Which strategies fit which stuck type; the ladder tries them in priority
 * order (or by measured success when learning is on) and always ends in abort.
 */
const DEFAULT_STRATEGIES_BY_TYPE: Record<StuckType, StrategyKind[]> = {
  position: ['retry', 'unstuck', 'repath', 'teleport', 'escalate', 'abort'],
  state: ['retry', 'escalate', 'abort'],
  progress: ['retry', 'unstuck', 'repath', 'subgoal', 'escalate', 'abort'],
  path: ['unstuck', 'repath', 'teleport', 'subgoal', 'escalate', 'abort'],
  flap: ['repath', 'subgoal', 'escalate', 'abort'],
  no_actuator: ['retry', 'escalate', 'abort'],
  hanging: ['retry', 'escalate', 'abort'],
  heartbeat: ['retry', 'abort'],
};

const byTypeShape = Object.fromEntries(
  STUCK_TYPES.map((type) => [type, strategyList.default(DEFAULT_STRATEGIES_BY_TYPE[type])]),
) as Record<StuckType, z.ZodDefault<typeof strategyList>>;

/**
 * Recovery defaults ("The recovery ladder's defaults" in docs/contract.md): priorities
 * retry 100, unstuck moves 95 (so a body stuck in place tries a jump before a new
 * path), repath 90, teleport 50, sub-goal 40, escalate 30, abort 10; retry backoff
 * 1 s ×2 up to 10 s with jitter, at most 2 retries, as A3 allows (the executor turns
 * this rung off: its own local retries come first); 2 escalations per task, abort at
 * the 5th stuck detection in a row, 20 recovery attempts per task. Teleport is off
 * unless enabled.
 */
export const RecoveryConfigSchema = z.strictObject({
  strategies: z
    .strictObject({
      retry: z
        .strictObject({
          enabled: z.boolean().default(true),
          priority: priority.default(100),
          maxAttempts: count.default(2),
          initialDelayMs: ms.default(1_000),
          maxDelayMs: ms.default(10_000),
          backoffMultiplier: z.number().min(1, 'must be >= 1').default(2),
          jitterRatio: z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1').default(0.2),
          /** Seeds the jitter, so a run's delays replay exactly. */
          seed: z.number().int().default(1),
        })
        .prefault({}),
      repath: z
        .strictObject({
          enabled: z.boolean().default(true),
          priority: priority.default(90),
          maxAttempts: count.default(3),
        })
        .prefault({}),
      unstuck: z
        .strictObject({
          enabled: z.boolean().default(true),
          priority: priority.default(95),
          /** Tried in this order, each once per step. */
          moves: z
            .array(z.enum(UNSTUCK_MOVES))
            .min(1, 'must name at least one move')
            .default([...UNSTUCK_MOVES]),
        })
        .prefault({}),
      teleport: z
        .strictObject({
          enabled: z.boolean().default(false),
          priority: priority.default(50),
          maxAttempts: count.default(1),
          maxDistanceBlocks: z.number().positive('must be > 0 blocks').default(100),
        })
        .prefault({}),
      subgoal: z
        .strictObject({
          enabled: z.boolean().default(true),
          priority: priority.default(40),
          maxAttempts: count.default(1),
        })
        .prefault({}),
      escalate: z
        .strictObject({
          enabled: z.boolean().default(true),
          priority: priority.default(30),
          maxPerTask: count.default(2),
        })
        .prefault({}),
      abort: z.strictObject({ priority: priority.default(10) }).prefault({}),
    })
    .prefault({}),
  byType: z.strictObject(byTypeShape).prefault({}),
  budgets: z
    .strictObject({
      attemptsPerStep: count.default(8),
      totalPerTask: count.default(20),
      maxConsecutiveStuck: count.default(5),
      /** Past this many stuck incidents in an hour, automatic recovery pauses and says so. */
      maxIncidentsPerHour: count.default(10),
    })
    .prefault({}),
  /**
   * Branch exploration (issue 33): when a step first climbs the ladder, up to `count` ways out are tried on forks of
   * the world, and the best scored runs for real as the incident's first rung. Off by default; needs an explorer.
   */
  branches: BranchConfigSchema.prefault({}),
  /** Off by default; when on, records outcomes and orders strategies by measured success. */
  learning: z.strictObject({ enabled: z.boolean().default(false) }).prefault({}),
  /** A new plan this similar (Jaccard) to each of the last `window` failed plans is a loop (`planner.loop`). */
  plannerLoop: z
    .strictObject({
      similarityThreshold: z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1').default(0.6),
      window: count.default(3),
      maxHistory: count.default(10),
    })
    .prefault({}),
});

export type RecoveryConfig = z.infer<typeof RecoveryConfigSchema>;
export type RecoveryConfigInput = z.input<typeof RecoveryConfigSchema>;

/** The one configuration object for stuck detection and recovery. */
export const StuckConfigSchema = z.strictObject({
  detection: StuckDetectionConfigSchema.prefault({}),
  recovery: RecoveryConfigSchema.prefault({}),
});

export type StuckConfig = z.infer<typeof StuckConfigSchema>;
export type StuckConfigInput = z.input<typeof StuckConfigSchema>;

export const DEFAULT_RECOVERY_CONFIG: RecoveryConfig = RecoveryConfigSchema.parse({});
export const DEFAULT_STUCK_CONFIG: StuckConfig = StuckConfigSchema.parse({});

export class StuckConfigError extends Error {
  constructor(
    message: string,
    readonly issues: ReadonlyArray<{ path: string; message: string }>,
  ) {
    super(message);
    this.name = 'StuckConfigError';
  }
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** Parses a stuck config; throws StuckConfigError naming each bad key path, what it expects and what it got. */
export function parseStuckConfig(input: unknown, source = 'stuck config'): StuckConfig {
  const result = StuckConfigSchema.safeParse(input);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => {
    const path = issue.path.map(String).join('.') || '(root)';
    const got =
      issue.code === 'unrecognized_keys' ? '' : `, got ${JSON.stringify(valueAt(input, issue.path)) ?? 'nothing'}`;
    return { path, message: `${issue.message}${got}` };
  });
  const lines = issues.map((issue) => `  "${issue.path}": ${issue.message}`);
  throw new StuckConfigError(`Invalid ${source}:\n${lines.join('\n')}`, issues);
}

/** Reads a JSON stuck config file; missing keys take the defaults. */
export async function loadStuckConfig(file: string): Promise<StuckConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new StuckConfigError(`Cannot read stuck config ${file}: ${(error as Error).message}`, []);
  }
  let json: unknown;
  try {
    json = JSON.parse(withoutByteOrderMark(text));
  } catch (error) {
    throw new StuckConfigError(`Stuck config ${file} is not valid JSON: ${(error as Error).message}`, []);
  }
  return parseStuckConfig(json, `stuck config ${file}`);
}
