import { createDefaultRegistry } from '../capabilities/index.js';
import { ManualClock } from '../src/clock/index.js';
import { queryFor, unmetExpectations } from '../src/contracts/expectation.js';
import { assembleExecutor } from '../src/executor/assemble.js';
import type { ExecutorEvent, PlanResult } from '../src/executor/events.js';
import { forkExplorer } from '../src/foresight/index.js';
import { generateHardCases, type HardCase } from '../src/foresight/hard-cases.js';
import type { BranchExplorer, ScoredBranch } from '../src/recovery/branches.js';
import type { BenchOptions, BenchResult } from './types.js';

/*
 * Issue 33 §4: the SimWorld hard cases, each run with and without branch exploration in the same run, forks in worker
 * threads as in production. Time to truth is the run's simulated time plus the real time the forks took (a real bot
 * waits for them); a false ok is a run that ended ok while the step's own expectations do not hold in the world.
 */

interface CaseRun {
  description: string;
  ok: boolean;
  falseOk: boolean;
  timeToTruthMs: number;
  forkWallMs: number;
  forkCpuMs: number;
}

async function runCase(make: (clock: ManualClock) => HardCase, branches: boolean): Promise<CaseRun> {
  const clock = new ManualClock();
  const hard = make(clock);
  const inner = forkExplorer();
  let pending: Promise<ScoredBranch[]> | null = null;
  let forkWallMs = 0;
  let forkCpuMs = 0;
  const explorer: BranchExplorer = {
    explore(request) {
      const wall = performance.now();
      const cpu = process.cpuUsage();
      pending = inner.explore(request).finally(() => {
        forkWallMs += performance.now() - wall;
        const used = process.cpuUsage(cpu);
        forkCpuMs += (used.user + used.system) / 1000;
        pending = null;
      });
      return pending;
    },
  };
  const { executor } = await assembleExecutor({
    registry: createDefaultRegistry(),
    world: hard.world,
    clock,
    explorer,
    recovery: { branches: { enabled: branches } },
  });
  const events: ExecutorEvent[] = [];
  executor.events.on('event', (event) => events.push(event));
  let result: PlanResult | undefined;
  const plan = { planId: hard.name, intentId: hard.name, steps: [{ stepId: 'stuck', ...hard.step }] };
  void executor.run(plan).result.then((r) => (result = r));
  // The run's clock stands still while the forks work, so its timers never race their real time.
  for (let rounds = 0; result === undefined && rounds < 100; rounds++) {
    await clock.runUntil(() => result !== undefined || pending !== null, 600_000);
    if (pending) await (pending as Promise<unknown>).catch(() => undefined);
    else if (result === undefined) break;
  }
  const expects = events.find((e) => e.type === 'step.expects' && e.stepId === 'stuck');
  const expectations = expects?.type === 'step.expects' ? expects.expectations : [];
  const held = unmetExpectations(expectations, await hard.world.observe(queryFor(expectations))).length === 0;
  const ok = result?.ok === true;
  return {
    description: hard.description,
    ok,
    falseOk: ok && !held,
    timeToTruthMs: clock.now() + forkWallMs,
    forkWallMs,
    forkCpuMs,
  };
}

/** Instances of each kind when `--placements` does not say: 2 of each, under three minutes on two cores. */
const DEFAULT_PER_KIND = 2;
const DEFAULT_SEED = 33;

interface Tally {
  ok: number;
  falseOk: number;
  timesToTruth: number[];
}

const tally = (): Tally => ({ ok: 0, falseOk: 0, timesToTruth: [] });

function count(into: Tally, run: CaseRun): void {
  into.ok += Number(run.ok);
  into.falseOk += Number(run.falseOk);
  into.timesToTruth.push(run.timeToTruthMs);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * `--seed N` draws the layouts, `--placements N` how many of each kind: each case runs without, then with, branch
 * exploration; a row each for its ok and time to truth, then per kind and over all the success rate and median time
 * to truth, the false oks, and the forks' wall time and CPU.
 */
export default async function foresightBench(options: BenchOptions): Promise<BenchResult[]> {
  const seed = options.seed ?? DEFAULT_SEED;
  const cases = generateHardCases(seed, options.placements ?? DEFAULT_PER_KIND);
  const rows: BenchResult[] = [];
  const kinds = new Map<string, { with: Tally; without: Tally }>();
  const all = { with: tally(), without: tally() };
  let forkCpuMs = 0;
  let forkWallMs = 0;
  for (const generated of cases) {
    const without = await runCase(generated.make, false);
    const withBranches = await runCase(generated.make, true);
    const kind = kinds.get(generated.kind) ?? { with: tally(), without: tally() };
    kinds.set(generated.kind, kind);
    for (const into of [kind, all]) {
      count(into.with, withBranches);
      count(into.without, without);
    }
    forkCpuMs += withBranches.forkCpuMs;
    forkWallMs += withBranches.forkWallMs;
    const verdict = (run: CaseRun) => (run.ok ? 'ok' : 'failed');
    rows.push({
      name: `foresight ${generated.name} (${withBranches.description}): time to truth, ${verdict(withBranches)} with branches (baseline: ${verdict(without)} without)`,
      value: withBranches.timeToTruthMs,
      unit: 'ms',
      baseline: without.timeToTruthMs,
    });
  }
  for (const [name, kind] of [...kinds, ['all kinds', all] as const])
    rows.push(
      {
        name: `foresight ${name}: success rate with branches (baseline: without)`,
        value: kind.with.ok / kind.with.timesToTruth.length,
        unit: 'share',
        baseline: kind.without.ok / kind.without.timesToTruth.length,
      },
      {
        name: `foresight ${name}: median time to truth, ok or not (simulated + fork wall)`,
        value: median(kind.with.timesToTruth),
        unit: 'ms',
        baseline: median(kind.without.timesToTruth),
        // A failure no time at all after dispatch (a guard's) has no ratio.
        ...(median(kind.without.timesToTruth) > 0
          ? { ratio: median(kind.with.timesToTruth) / median(kind.without.timesToTruth) }
          : {}),
      },
    );
  rows.push(
    {
      name: `foresight: false oks over ${cases.length} cases (seed ${seed})`,
      value: all.with.falseOk,
      unit: 'runs',
      baseline: all.without.falseOk,
    },
    { name: "foresight: forks' wall time, all cases", value: forkWallMs, unit: 'ms' },
    { name: 'foresight: process CPU while forks ran, all cases', value: forkCpuMs, unit: 'ms' },
  );
  return rows;
}
