import { BehaviourTree, State } from 'mistreevous';
import { ManualClock } from '../src/clock/index.js';
import type { WorldPort } from '../src/contracts/world.js';
import { createBindingRegistry, createTreeCatalog, createTreeRunner, type RuntimeHooks } from '../src/runtime/index.js';

/**
 * The runtime's per-step overhead against bare mistreevous, run as a process of its own (runtime.bench.ts forks it):
 * in a process that has run other benches first, V8's feedback on mistreevous's shared code and the heap those benches
 * left move the ratio (×1.45 after the executor bench where this process reads ×1.2–1.3), so the figure would depend
 * on which benches were named before it.
 */

/** Per-round ratios of the runtime against one baseline: their median and quartiles. */
export interface OverheadReading {
  runtimeUs: number;
  baselineUs: number;
  ratio: number;
  ratioP25: number;
  ratioP75: number;
}

export interface OverheadResult {
  guarded: OverheadReading;
  unwatched: OverheadReading;
}

const world = {} as WorldPort;

// 11 nodes. verbtree's sequence carries a watchdog; bare mistreevous has none, so it gets the tree
// twice: with the watchdog written as the cheapest guard it would need (`while(always)`), and with no
// watchdog at all, the strictest baseline.
const overheadTree = (guard: string) => `root {
  repeat {
    sequence${guard} {
      condition [ready]
      selector { action [miss] action [hit] }
      parallel { action [hit] action [hit] }
      flip { condition [blocked] }
      action [hit]
    }
  }
}`;

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) * q)]!;
}

/**
 * CPU time, not wall time: on a shared machine the scheduler takes the core away in the middle of a slice, and wall
 * time charges that to whichever side was running (at a load of 15 on 2 cores a step read 6–20 µs of wall time for
 * 2.4–3 µs of CPU).
 */
function cpuMicrosPerStep(step: () => void, steps: number): number {
  const start = process.cpuUsage();
  for (let i = 0; i < steps; i++) step();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / steps;
}

function bareTree(guard: string): BehaviourTree {
  return new BehaviourTree(overheadTree(guard), {
    always: () => true,
    ready: () => true,
    blocked: () => false,
    miss: () => State.FAILED,
    hit: () => State.SUCCEEDED,
  });
}

function runtimeStepper(): { step: () => void; stop: () => void } {
  const bindings = createBindingRegistry()
    .registerCondition('ready', () => true)
    .registerCondition('blocked', () => false)
    .registerAction('miss', () => false)
    .registerAction('hit', () => true);
  const catalog = createTreeCatalog(
    [{ file: 'overhead.mdsl', text: overheadTree(' while(watchdog, "ttfa", 100000, "maxStateDuration", 100000)') }],
    bindings,
  );
  const hooks: RuntimeHooks = { nodeStates: () => undefined, actuate: () => undefined, watchdogTrip: () => undefined };
  const runner = createTreeRunner({ catalog, bindings, clock: new ManualClock(), hooks });
  void runner.run(
    'overhead',
    { args: {}, world },
    { watchdogDefaults: { ttfaMs: 1e9, noActuatorMs: 1e9, maxStateDurationMs: 1e9 } },
  );
  return { step: () => runner.tick(), stop: () => void runner.shutdown() };
}

/**
 * Short slices of the three sides, their order turned each round so that none always runs first (or right after a
 * given other), and each ratio taken within its round: drift in machine speed hits both sides of a round alike.
 */
export function measureOverhead(rounds = 200, stepsPerSlice = 2_000, warmupRounds = 20): OverheadResult {
  const runtime = runtimeStepper();
  const guarded = bareTree(' while(always)');
  const unwatched = bareTree('');
  const sides = [runtime.step, () => guarded.step(), () => unwatched.step()];
  const times: number[][] = [[], [], []];
  for (let round = 0; round < warmupRounds + rounds; round++) {
    const slice = [0, 0, 0];
    for (let turn = 0; turn < 3; turn++) {
      const side = (round + turn) % 3;
      slice[side] = cpuMicrosPerStep(sides[side]!, stepsPerSlice);
    }
    if (round < warmupRounds) continue;
    slice.forEach((us, side) => times[side]!.push(us));
  }
  runtime.stop();
  const reading = (baseline: number[]): OverheadReading => {
    const ratios = times[0]!.map((us, round) => us / baseline[round]!);
    return {
      runtimeUs: quantile(times[0]!, 0.5),
      baselineUs: quantile(baseline, 0.5),
      ratio: quantile(ratios, 0.5),
      ratioP25: quantile(ratios, 0.25),
      ratioP75: quantile(ratios, 0.75),
    };
  };
  return { guarded: reading(times[1]!), unwatched: reading(times[2]!) };
}

// Forked by runtime.bench.ts: measure, send the result to the parent, and end.
if (process.send) {
  const result = measureOverhead();
  process.send(result, () => process.exit(0));
}
