import { createDefaultRegistry } from '../capabilities/index.js';
import { SystemClock } from '../src/clock/index.js';
import { assembleLoaded, type loadTrees } from '../src/executor/assemble.js';
import type { ExecutorEvent, PlanResult } from '../src/executor/events.js';
import type { MineflayerWorld } from '../src/world/mineflayer/index.js';

/** What the embedded benches share: one registry, real time, plan runs and their figures. */

export const SPEC_TTFA_MS = 2000;
/** A plan still running after this is cancelled and counted as unfinished. */
export const PLAN_LIMIT_MS = 30_000;

export const registry = createDefaultRegistry();
export const clock = new SystemClock();

export type Loaded = Awaited<ReturnType<typeof loadTrees>>;
export type Step = { stepId: string; type: string; args: Record<string, unknown> };

export interface PlanRun {
  result: PlanResult;
  /** True when the bench's own time limit cancelled the plan: it neither completed nor failed by itself. */
  unfinished: boolean;
}

export async function runPlan(
  world: MineflayerWorld,
  loaded: Loaded,
  planId: string,
  steps: Step[],
  events: ExecutorEvent[],
): Promise<PlanRun> {
  const { executor, runner } = assembleLoaded({ registry, world, clock, loaded });
  executor.events.on('event', (event) => events.push(event));
  const signal = AbortSignal.timeout(PLAN_LIMIT_MS);
  try {
    const result = await executor.run({ planId, intentId: 'bench', steps }, { signal }).result;
    return { result, unfinished: !result.ok && signal.aborted };
  } finally {
    await runner.shutdown();
  }
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const ttfasOf = (events: readonly ExecutorEvent[], verb?: string): number[] =>
  events
    .flatMap((e) => (e.type === 'step.firstAction' && (verb === undefined || e.verb === verb) ? [e.ttfaMs] : []))
    .sort((a, b) => a - b);

export const mb = (bytes: number) => bytes / 1024 / 1024;
