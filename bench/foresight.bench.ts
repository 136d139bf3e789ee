import { availableParallelism } from 'node:os';
import { createDefaultRegistry } from '../capabilities/index.js';
import { ManualClock } from '../src/clock/index.js';
import { assembleExecutor } from '../src/executor/assemble.js';
import type { ExecutorEvent, PlanResult } from '../src/executor/events.js';
import { captureView, ForkPool } from '../src/foresight/index.js';
import { generateHardCases, type GeneratedHardCase, type HardCase } from '../src/foresight/hard-cases.js';
import { type CaseRun, expectationsHold, measuredExplorer, runOnServer } from './foresight-embedded.js';
import type { BenchOptions, BenchResult } from './types.js';

/*
 * Issue 33 §4: the SimWorld hard cases, each run with and without branch exploration in the same run, forks in worker
 * threads as in production, then the first of each kind on the embedded server (foresight-embedded.ts). In SimWorld
 * time to truth is the run's simulated time plus the real time the forks took (a real bot waits for them); on the
 * server it is real time. A false ok is a run that ended ok while the step's own expectations do not hold in the world.
 */

async function runCase(make: (clock: ManualClock) => HardCase, branches: boolean, pool?: ForkPool): Promise<CaseRun> {
  const clock = new ManualClock();
  const hard = make(clock);
  const { explorer, pending, used } = measuredExplorer(pool);
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
    await clock.runUntil(() => result !== undefined || pending() !== null, 600_000);
    const forks = pending();
    if (forks) await forks.catch(() => undefined);
    else if (result === undefined) break;
  }
  const held = await expectationsHold(events, hard.world);
  const ok = result?.ok === true;
  const { wallMs, cpuMs } = used();
  return {
    description: hard.description,
    ok,
    falseOk: ok && !held,
    timeToTruthMs: clock.now() + wallMs,
    forkWallMs: wallMs,
    forkCpuMs: cpuMs,
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

/** The hard cases run on the embedded server too: the first drawn instance of each kind (4 cases, about a minute). */
const SERVER_PER_KIND = 1;
/** A fork's wall budget in the warm-thread rows: far past a thread's start under load. */
const WARM_BENCH_WALL_MS = 60_000;

type RunCase = (generated: GeneratedHardCase, branches: boolean) => Promise<CaseRun>;

/**
 * Runs each case without, then with, branch exploration in `where` (SimWorld or the embedded server); a row each for
 * its ok and time to truth, then per kind and over all the success rate and median time to truth, the false oks, and
 * the forks' wall time and CPU.
 */
async function benchCases(where: string, cases: readonly GeneratedHardCase[], run: RunCase, seed: number) {
  const rows: BenchResult[] = [];
  const kinds = new Map<string, { with: Tally; without: Tally }>();
  const all = { with: tally(), without: tally() };
  let forkCpuMs = 0;
  let forkWallMs = 0;
  for (const generated of cases) {
    const without = await run(generated, false);
    const withBranches = await run(generated, true);
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
      name: `foresight ${where} ${generated.name} (${withBranches.description}): time to truth, ${verdict(withBranches)} with branches (baseline: ${verdict(without)} without)`,
      value: withBranches.timeToTruthMs,
      unit: 'ms',
      baseline: without.timeToTruthMs,
    });
  }
  for (const [name, kind] of [...kinds, ['all kinds', all] as const])
    rows.push(
      {
        name: `foresight ${where} ${name}: success rate with branches (baseline: without)`,
        value: kind.with.ok / kind.with.timesToTruth.length,
        unit: 'share',
        baseline: kind.without.ok / kind.without.timesToTruth.length,
      },
      {
        name: `foresight ${where} ${name}: median time to truth, ok or not`,
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
      name: `foresight ${where}: false oks over ${cases.length} cases (seed ${seed})`,
      value: all.with.falseOk,
      unit: 'runs',
      baseline: all.without.falseOk,
    },
    { name: `foresight ${where}: forks' wall time, all cases`, value: forkWallMs, unit: 'ms' },
    { name: `foresight ${where}: process CPU while forks ran, all cases`, value: forkCpuMs, unit: 'ms' },
  );
  return rows;
}

/**
 * `--seed N` draws the layouts, `--placements N` how many of each kind run in SimWorld (time to truth: simulated
 * time plus the forks' real time); the first of each kind also runs on the embedded server, a real bot on real time.
 */
export default async function foresightBench(options: BenchOptions): Promise<BenchResult[]> {
  const seed = options.seed ?? DEFAULT_SEED;
  const cases = generateHardCases(seed, options.placements ?? DEFAULT_PER_KIND);
  const inSim = await benchCases('SimWorld', cases, (generated, branches) => runCase(generated.make, branches), seed);
  const onServer = await benchCases('embedded', generateHardCases(seed, SERVER_PER_KIND), runOnServer, seed);
  return [...inSim, ...onServer, ...(await warmRows(cases))];
}

/**
 * What warm threads save: the time to a fork's outcome from a thread started for it against one loaded beforehand,
 * and a wall case's time to truth with branches, its forks on threads started for each against a warm pool's.
 */
async function warmRows(cases: readonly GeneratedHardCase[]): Promise<BenchResult[]> {
  const wall = cases.find((generated) => generated.kind === 'wallWithOneDiggable')!;
  const hard = wall.make(new ManualClock());
  const view = await captureView(hard.world, { radius: 8, height: 4 });
  const job = { ...hard.step, verb: hard.step.type, simBudgetMs: 60_000 };
  const firstOutcomeMs = async (pool: ForkPool) => {
    const started = performance.now();
    await pool.run(view, job);
    return performance.now() - started;
  };
  const cold = new ForkPool({ size: 1, wallBudgetMs: WARM_BENCH_WALL_MS });
  const warm = new ForkPool({ wallBudgetMs: WARM_BENCH_WALL_MS, warm: availableParallelism() });
  try {
    const coldMs = await firstOutcomeMs(cold);
    await warm.warmUp();
    const warmMs = await firstOutcomeMs(warm);
    const coldCase = await runCase(wall.make, true);
    const warmCase = await runCase(wall.make, true, warm);
    return [
      {
        name: `foresight: time to a first fork's outcome (${wall.name}'s step), on a warm thread (baseline: a thread started for it)`,
        value: warmMs,
        unit: 'ms',
        baseline: coldMs,
        ratio: warmMs / coldMs,
      },
      {
        name: `foresight SimWorld ${wall.name}: time to truth with branches, forks on warm threads (baseline: a thread started for each)`,
        value: warmCase.timeToTruthMs,
        unit: 'ms',
        baseline: coldCase.timeToTruthMs,
        ratio: warmCase.timeToTruthMs / coldCase.timeToTruthMs,
      },
    ];
  } finally {
    await warm.close();
  }
}
