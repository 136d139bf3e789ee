import { createDefaultRegistry } from '../capabilities/index.js';
import { ManualClock } from '../src/clock/index.js';
import { queryFor, unmetExpectations } from '../src/contracts/expectation.js';
import { assembleExecutor } from '../src/executor/assemble.js';
import type { ExecutorEvent, PlanResult } from '../src/executor/events.js';
import { forkExplorer } from '../src/foresight/index.js';
import { HARD_CASES, type HardCase } from '../src/foresight/hard-cases.js';
import type { BranchExplorer, ScoredBranch } from '../src/recovery/branches.js';
import type { BenchResult } from './types.js';

/*
 * Issue 33 §4: the SimWorld hard cases, each run with and without branch exploration in the same run, forks in worker
 * threads as in production. Time to truth is the run's simulated time plus the real time the forks took (a real bot
 * waits for them); a false ok is a run that ended ok while the step's own expectations do not hold in the world.
 */

interface CaseRun {
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
  return { ok, falseOk: ok && !held, timeToTruthMs: clock.now() + forkWallMs, forkWallMs, forkCpuMs };
}

export default async function foresightBench(): Promise<BenchResult[]> {
  const rows: BenchResult[] = [];
  let falseOks = 0;
  let baselineFalseOks = 0;
  let forkCpuMs = 0;
  let forkWallMs = 0;
  let successes = 0;
  let baselineSuccesses = 0;
  for (const make of HARD_CASES) {
    const name = make.name;
    const without = await runCase(make, false);
    const withBranches = await runCase(make, true);
    successes += Number(withBranches.ok);
    baselineSuccesses += Number(without.ok);
    falseOks += Number(withBranches.falseOk);
    baselineFalseOks += Number(without.falseOk);
    forkCpuMs += withBranches.forkCpuMs;
    forkWallMs += withBranches.forkWallMs;
    rows.push(
      {
        name: `foresight ${name}: ok with branches (baseline: without)`,
        value: Number(withBranches.ok),
        unit: 'ok',
        baseline: Number(without.ok),
      },
      {
        name: `foresight ${name}: time to truth (simulated + fork wall)`,
        value: withBranches.timeToTruthMs,
        unit: 'ms',
        baseline: without.timeToTruthMs,
        ratio: withBranches.timeToTruthMs / without.timeToTruthMs,
      },
    );
  }
  rows.push(
    {
      name: `foresight: success rate over ${HARD_CASES.length} hard cases`,
      value: successes / HARD_CASES.length,
      unit: 'share',
      baseline: baselineSuccesses / HARD_CASES.length,
    },
    { name: 'foresight: false oks', value: falseOks, unit: 'runs', baseline: baselineFalseOks },
    { name: "foresight: forks' wall time, all cases", value: forkWallMs, unit: 'ms' },
    { name: 'foresight: process CPU while forks ran, all cases', value: forkCpuMs, unit: 'ms' },
  );
  return rows;
}
