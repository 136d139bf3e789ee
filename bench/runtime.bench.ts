import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BehaviourTree, State } from 'mistreevous';
import { ManualClock } from '../src/clock/index.js';
import type { WorldPort } from '../src/contracts/world.js';
import { createBindingRegistry, createTreeCatalog, createTreeRunner } from '../src/runtime/index.js';
import type { OverheadReading, OverheadResult } from './runtime-overhead.js';
import type { BenchResult } from './types.js';

/**
 * The runtime (token-guarded leaves, watchdogs, hooks) against bare mistreevous
 * stepping the same tree in the same process, and the cost of one 20 Hz tick
 * over 10,000 live trees.
 */

const world = {} as WorldPort;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const spread = (reading: OverheadReading): string =>
  `per-round ratios p25–p75 ×${reading.ratioP25.toFixed(2)}–${reading.ratioP75.toFixed(2)}`;

/** The per-step overhead, measured in a process of its own (runtime-overhead.ts says why). */
async function overhead(): Promise<BenchResult[]> {
  const child = fork(fileURLToPath(new URL('./runtime-overhead.ts', import.meta.url)));
  const result = await new Promise<OverheadResult>((resolve, reject) => {
    child.once('message', (message) => resolve(message as OverheadResult));
    child.once('exit', (code) => reject(new Error(`runtime-overhead.ts ended (code ${code}) before its result`)));
  });
  const row = (against: string, reading: OverheadReading): BenchResult => ({
    name: `runtime step, 11-node tree with a watchdog, CPU time (vs bare mistreevous ${against}; ${spread(reading)})`,
    value: reading.runtimeUs,
    unit: 'µs/step',
    baseline: reading.baselineUs,
    ratio: reading.ratio,
  });
  return [row('with the watchdog as a guard', result.guarded), row('without the watchdog', result.unwatched)];
}

/** `guard` goes on the sequence beside its watchdog; bare mistreevous gets the same guard. */
const fleetTree = (guard = '') => `root {
  repeat {
    retry [3] while(retryable) {
      sequence while(watchdog, "ttfa", 600000, "maxStateDuration", 600000) ${guard}{
        action [backoff, 100, 1000]
        condition [ready]
        selector { action [work] action [work] }
        action [work]
      }
    }
  }
}`;

/** Leaves that finish when the bench says so: each tick, about 5% of the pending work completes. */
class WorkQueue {
  private readonly pending: (() => void)[] = [];
  add(): Promise<boolean> {
    return new Promise((resolve) => this.pending.push(() => resolve(true)));
  }
  completeSome(fraction: number): void {
    const count = Math.floor(this.pending.length * fraction);
    for (const done of this.pending.splice(0, count)) done();
  }
}

async function flushMicrotasks(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

/**
 * The tick line times the tick alone, as it always has; the period line adds
 * the prompt steps that settles trigger between ticks, for both sides, so a
 * runtime that skips waiting runs on the tick is charged for the work it
 * moved off it.
 */
async function fleet(trees: number, ticks: number, variant: { label: string; guard: string }): Promise<BenchResult[]> {
  const runtimeQueue = new WorkQueue();
  const bindings = createBindingRegistry()
    .registerCondition('ready', () => true)
    .registerCondition('blocked', () => false)
    .registerAction('work', () => runtimeQueue.add());
  const catalog = createTreeCatalog([{ file: 'fleet.mdsl', text: fleetTree(variant.guard) }], bindings);
  const runner = createTreeRunner({
    catalog,
    bindings,
    clock: new ManualClock(),
    hooks: { nodeStates: () => undefined },
  });
  for (let i = 0; i < trees; i++)
    void runner.run(
      'fleet',
      { args: {}, world },
      { watchdogDefaults: { ttfaMs: 6e5, noActuatorMs: 6e5, maxStateDurationMs: 6e5 } },
    );

  const bareQueue = new WorkQueue();
  const bareTrees = Array.from({ length: trees }, () => {
    const agent = {
      always: () => true,
      ready: () => true,
      blocked: () => false,
      backoff: () => State.SUCCEEDED,
      work: () => bareQueue.add().then(() => State.SUCCEEDED),
    };
    return new BehaviourTree(
      fleetTree(variant.guard)
        .replace('while(retryable)', 'while(always)')
        .replace(/while\(watchdog[^)]*\)/, 'while(always)'),
      agent,
    );
  });

  const runtimeTicks: number[] = [];
  const runtimePeriods: number[] = [];
  const bareTicks: number[] = [];
  const barePeriods: number[] = [];
  for (let tick = 0; tick < ticks; tick++) {
    let start = performance.now();
    runtimeQueue.completeSome(0.05);
    await flushMicrotasks();
    let tickStart = performance.now();
    runner.tick();
    let end = performance.now();
    runtimeTicks.push(end - tickStart);
    runtimePeriods.push(end - start);
    start = performance.now();
    bareQueue.completeSome(0.05);
    await flushMicrotasks();
    tickStart = performance.now();
    for (const tree of bareTrees) tree.step();
    end = performance.now();
    bareTicks.push(end - tickStart);
    barePeriods.push(end - start);
  }
  await runner.shutdown();
  const line = (name: string, runtime: number[], bare: number[]): BenchResult => {
    const value = median(runtime.slice(2));
    const baseline = median(bare.slice(2));
    return { name, value, unit: 'ms/tick', baseline, ratio: value / baseline };
  };
  return [
    line(`one 20 Hz tick over ${trees} live trees${variant.label} (vs bare mistreevous)`, runtimeTicks, bareTicks),
    line(
      `one 20 Hz period (tick + steps on settles), ${trees} live trees${variant.label} (vs bare mistreevous)`,
      runtimePeriods,
      barePeriods,
    ),
  ];
}

export default async function runtimeBench(): Promise<BenchResult[]> {
  return [
    ...(await overhead()),
    ...(await fleet(10_000, 24, { label: '', guard: '' })),
    ...(await fleet(10_000, 24, { label: ', condition-guarded', guard: 'until(blocked) ' })),
  ];
}
