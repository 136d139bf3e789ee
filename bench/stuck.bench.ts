import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import type { Clock, TimerHandle } from '../src/contracts/clock.js';
import { RecoveryLadder } from '../src/recovery/recovery-ladder.js';
import { createDetection } from '../src/stuck/detection.js';
import { StuckDetectorSet } from '../src/stuck/detector-set.js';
import { StuckStateArena } from '../src/stuck/state-arena.js';
import { StuckMonitor } from '../src/stuck/stuck-monitor.js';
import type { BenchResult } from './types.js';

const GOAL_TICK_NS = 1_000;
const GOAL_STATE_BYTES = 512;
const GOAL_DECISION_US = 1_000;

/** A clock the bench moves by hand, without ManualClock's async timer machinery in the hot loop. */
class BenchClock implements Clock {
  t = 0;
  now(): number {
    return this.t;
  }
  setTimeout(): TimerHandle {
    return { id: 0 };
  }
  clearTimeout(): void {}
}

function collectGarbage(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

interface Agent {
  monitor: StuckMonitor;
  position: { x: number; y: number; z: number };
  walking: boolean;
}

/** Half the agents walk (goto in flight, progress rising), half mine in place: every detector runs each tick. */
function fleet(clock: BenchClock, count: number): Agent[] {
  // The run is longer than EXECUTING's 60 s timeout; lift it so the state detector is checked every tick without
  // tripping.
  const detectors = new StuckDetectorSet({ state: { timeoutsMs: { EXECUTING: 1e12 } } });
  const arena = new StuckStateArena(detectors, count);
  return Array.from({ length: count }, (_, i) => {
    const monitor = new StuckMonitor({ clock, detectors, memory: arena.allocate() });
    const walking = i % 2 === 0;
    monitor.setState('EXECUTING');
    monitor.beginStep({ movement: walking, progress: 0, progressTotal: 1e9, invocationDeadlineMs: 1e12 });
    monitor.actuatorStarted();
    return { monitor, position: { x: i, y: 64, z: 0 }, walking };
  });
}

function tickRound(clock: BenchClock, agents: Agent[], round: number): number {
  clock.t += 50;
  let tripped = 0;
  for (let i = 0; i < agents.length; i++) {
    const agent = agents[i]!;
    if (agent.walking) agent.position.x += 0.2;
    agent.monitor.progress(round);
    if (agent.monitor.tick(agent.position) !== null) tripped++;
  }
  return tripped;
}

function measureTicks(): BenchResult[] {
  const clock = new BenchClock();
  const agents = fleet(clock, 1_000);
  let round = 0;
  for (let i = 0; i < 500; i++) tickRound(clock, agents, ++round);
  const rounds = 3_000;
  let tripped = 0;
  const start = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) tripped += tickRound(clock, agents, ++round);
  const nsPerTick = Number(process.hrtime.bigint() - start) / (rounds * agents.length);
  if (tripped !== 0) throw new Error(`bench agents are healthy, yet ${tripped} detections tripped`);

  // Allocation check: a short run stays inside the young generation, so heap growth is what the ticks allocated.
  const gc = collectGarbage();
  gc();
  const ticks = 100 * agents.length;
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < 100; i++) tickRound(clock, agents, ++round);
  const bytesPerTick = Math.max(0, process.memoryUsage().heapUsed - before) / ticks;
  return [
    {
      name: 'stuck: all detectors, one agent tick (ns; baseline = 1 µs goal)',
      value: nsPerTick,
      unit: 'ns',
      baseline: GOAL_TICK_NS,
      ratio: nsPerTick / GOAL_TICK_NS,
    },
    { name: 'stuck: heap growth per agent tick (allocation check)', value: bytesPerTick, unit: 'B' },
  ];
}

function bytesPerAgent(build: (count: number) => unknown[]): number {
  const gc = collectGarbage();
  const count = 10_000;
  const usage = () => {
    const { heapUsed, arrayBuffers } = process.memoryUsage();
    return heapUsed + arrayBuffers;
  };
  gc();
  const before = usage();
  const kept = build(count);
  gc();
  const after = usage();
  if (kept.length !== count) throw new Error('lost agents');
  return (after - before) / count;
}

function measureState(): BenchResult[] {
  const clock = new BenchClock();
  const detectors = new StuckDetectorSet();
  const arena = bytesPerAgent((count) => {
    const shared = new StuckStateArena(detectors, count);
    return Array.from({ length: count }, () => new StuckMonitor({ clock, detectors, memory: shared.allocate() }));
  });
  const own = bytesPerAgent((count) => Array.from({ length: count }, () => new StuckMonitor({ clock, detectors })));
  return [
    {
      name: 'stuck: detector state per agent, shared arena (B; baseline = 512 B goal)',
      value: arena,
      unit: 'B',
      baseline: GOAL_STATE_BYTES,
      ratio: arena / GOAL_STATE_BYTES,
    },
    {
      name: 'stuck: detector state per agent, own Float64Array (B; baseline = 512 B goal)',
      value: own,
      unit: 'B',
      baseline: GOAL_STATE_BYTES,
      ratio: own / GOAL_STATE_BYTES,
    },
    { name: 'stuck: state slots per agent (doubles)', value: detectors.slots, unit: 'slots' },
  ];
}

function measureDecisions(learning: boolean): BenchResult {
  const clock = new BenchClock();
  const ladder = new RecoveryLadder({ clock, config: { learning: { enabled: learning } } });
  const detection = createDetection('position', 'bench', 0, 5_000, {}, { x: 0, y: 64, z: 0 });
  const context = { canDig: true, hasPlaceableBlock: true, situation: 'navigate' };
  let decisions = 0;
  const run = () => {
    clock.t += 3_600_000; // an incident an hour: stays under the hourly limit, so no run ends in a pause
    ladder.beginTask();
    let decision = ladder.onDetection(detection, context);
    decisions++;
    while (decision.strategy !== 'abort' && decision.strategy !== 'pause') {
      const next = ladder.report(decision, { resolved: false }, context);
      if (!next) break;
      decision = next;
      decisions++;
    }
  };
  for (let i = 0; i < 2_000; i++) run();
  decisions = 0;
  const start = performance.now();
  while (performance.now() - start < 1_000) run();
  const us = ((performance.now() - start) * 1_000) / decisions;
  const name = `recovery: choose one rung${learning ? ', learning on' : ''} (µs; baseline = 1 ms goal)`;
  return { name, value: us, unit: 'µs', baseline: GOAL_DECISION_US, ratio: us / GOAL_DECISION_US };
}

/** Detector cost per agent tick, allocation per tick, per-agent state bytes, and recovery decision latency. */
export default function stuckBench(): Promise<BenchResult[]> {
  return Promise.resolve([...measureTicks(), ...measureState(), measureDecisions(false), measureDecisions(true)]);
}
