import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { ExecutorEvent } from '../src/executor/events.js';
import { startEmbeddedWorld } from '../src/world/embedded/index.js';
import type { MineflayerWorld } from '../src/world/mineflayer/index.js';
import { parseScenario } from '../src/world/scenario/index.js';
import {
  PLAN_LIMIT_MS,
  SPEC_TTFA_MS,
  clock,
  mb,
  percentile,
  runPlan,
  ttfasOf,
  type Loaded,
  type PlanRun,
  type Step,
} from './embedded-support.js';
import { PacketTally } from './packet-tally.js';
import { startProfile } from './plan-profile.js';
import type { BenchResult } from './types.js';

/**
 * How many bots one process runs plans for at once: `bots` bots connect and
 * each walks to its own spot, places a block and digs it again, all at once,
 * on the embedded server in this process (CPU and memory include its share).
 * Every plan is judged by the executor against the server's truth; it
 * completes, fails with a code, or is still running at the bench's limit
 * (unfinished, a failure of the bench's goal like any other). The packets the
 * bots receive meanwhile are counted by kind (packet-tally.ts): a kind whose
 * count per bot grows with the number of bots costs the fleet n² work.
 */

const CONNECT_BATCH = 10;
const PER_ROW = 10;

/** Bot i's spot on a grid of rows of ten around the spawn, 3 blocks apart in x and 5 in z. */
function spot(i: number, bots: number): { x: number; y: number; z: number } {
  const rows = Math.ceil(bots / PER_ROW);
  return { x: -14 + (i % PER_ROW) * 3, y: 5, z: -5 * Math.floor(rows / 2) + Math.floor(i / PER_ROW) * 5 };
}

/** Bot i's plan: walk to its spot, place a dirt block two blocks south of it, and dig that block again. */
export function fleetPlan(i: number, bots: number): Step[] {
  return planAt(spot(i, bots));
}

/** Walk to `spot`, place a dirt block two blocks south of it, and dig that block again. */
export function planAt({ x, z }: { x: number; z: number }): Step[] {
  const cell = { x, y: 5, z: z + 2 };
  return [
    { stepId: 'spread', type: 'navigate', args: { target: { kind: 'block', x, y: 5, z } } },
    { stepId: 'place', type: 'place_block', args: { position: cell, item: 'dirt' } },
    { stepId: 'dig', type: 'dig_block', args: { position: cell, block: 'dirt' } },
  ];
}

export async function fleetBench(loaded: Loaded, bots: number, profileFile?: string): Promise<BenchResult[]> {
  const world = await startEmbeddedWorld({
    clock,
    scenario: parseScenario({ name: 'bench-fleet', bot: { inventory: { dirt: 4 } } }),
  });
  try {
    const memBefore = process.memoryUsage();
    const connectStarted = performance.now();
    const fleet: MineflayerWorld[] = [];
    const joinFailures: string[] = [];
    for (let i = 0; i < bots; i += CONNECT_BATCH) {
      const batch = Array.from({ length: Math.min(CONNECT_BATCH, bots - i) }, (_, j) =>
        world.connectBot(`fleet-${i + j}`),
      );
      // A bot that cannot join runs no plan (it is counted as not connected), and the others still run theirs.
      for (const joined of await Promise.allSettled(batch)) {
        if (joined.status === 'fulfilled') fleet.push(joined.value);
        else joinFailures.push(joined.reason instanceof Error ? joined.reason.message : String(joined.reason));
      }
    }
    if (joinFailures.length > 0)
      process.stderr.write(
        `embedded fleet: ${joinFailures.length} of ${bots} bots could not join:\n  ${joinFailures.join('\n  ')}\n`,
      );
    const connectMs = performance.now() - connectStarted;
    const memConnected = process.memoryUsage();
    const disconnects: Disconnect[] = [];
    for (const bot of fleet)
      bot.events.on('disconnected', (reason) =>
        disconnects.push({ bot: bot.bot.username, reason, at: performance.now() }),
      );

    const events: ExecutorEvent[] = [];
    const packets = new PacketTally(fleet);
    packets.start();
    const stopProfile = profileFile ? await startProfile(profileFile) : null;
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const runs = await Promise.all(
      fleet.map((bot, i) => runPlan(bot, loaded, `fleet-${i}`, fleetPlan(i, bots), events)),
    );
    const wallMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    packets.stop();
    await stopProfile?.();
    loopDelay.disable();
    const memAfter = process.memoryUsage();
    report(runs, disconnects, bots, started);

    const { completed, failedByCode, unfinished } = tally(runs);
    const ttfa = ttfasOf(events);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const failed = Object.values(failedByCode).reduce((sum, n) => sum + n, 0);
    return [
      { name: `embedded fleet: bots connected`, value: fleet.length, unit: 'bots', baseline: bots },
      { name: `embedded fleet: connect ${bots} bots (batches of ${CONNECT_BATCH})`, value: connectMs, unit: 'ms' },
      {
        name: `embedded fleet: plans completed, ${bots} bots at once (navigate+place+dig)`,
        value: completed,
        unit: 'plans',
        baseline: bots,
        ratio: completed / bots,
      },
      { name: `embedded fleet: plans failed`, value: failed, unit: 'plans', baseline: bots },
      ...Object.entries(failedByCode).map(([code, n]) => ({
        name: `embedded fleet: plans failed with ${code}`,
        value: n,
        unit: 'plans',
        baseline: bots,
      })),
      {
        name: `embedded fleet: plans unfinished at the ${PLAN_LIMIT_MS / 1000} s limit`,
        value: unfinished,
        unit: 'plans',
        baseline: bots,
      },
      { name: `embedded fleet: wall time, ${bots} concurrent plans`, value: wallMs, unit: 'ms' },
      {
        name: `embedded fleet: ttfa p50 under ${bots} bots (n=${ttfa.length})`,
        value: percentile(ttfa, 50),
        unit: 'ms',
        baseline: SPEC_TTFA_MS,
        ratio: percentile(ttfa, 50) / SPEC_TTFA_MS,
      },
      {
        name: `embedded fleet: ttfa p95 under ${bots} bots (n=${ttfa.length})`,
        value: percentile(ttfa, 95),
        unit: 'ms',
        baseline: SPEC_TTFA_MS,
        ratio: percentile(ttfa, 95) / SPEC_TTFA_MS,
      },
      {
        name: `embedded fleet: event-loop delay p50 while running plans`,
        value: loopDelay.percentile(50) / 1e6,
        unit: 'ms',
      },
      {
        name: `embedded fleet: event-loop delay p99 while running plans`,
        value: loopDelay.percentile(99) / 1e6,
        unit: 'ms',
      },
      // One stall longer than the server's keep-alive timeout (10 s) kicks every bot at once; a percentile hides it.
      { name: `embedded fleet: event-loop delay max while running plans`, value: loopDelay.max / 1e6, unit: 'ms' },
      { name: 'embedded fleet: CPU per bot per plan (incl. server)', value: cpuMs / fleet.length, unit: 'ms' },
      { name: 'embedded fleet: CPU load while running plans', value: (cpuMs / wallMs) * 100, unit: '% of a core' },
      {
        name: 'embedded fleet: RSS per connected bot (incl. server)',
        value: mb(memConnected.rss - memBefore.rss) / fleet.length,
        unit: 'MB',
      },
      {
        name: 'embedded fleet: RSS per bot after its plan (incl. server)',
        value: mb(memAfter.rss - memBefore.rss) / fleet.length,
        unit: 'MB',
      },
      ...packets.results('embedded fleet'),
    ];
  } finally {
    await world.stop();
  }
}

function tally(runs: readonly PlanRun[]): {
  completed: number;
  failedByCode: Record<string, number>;
  unfinished: number;
} {
  let completed = 0;
  let unfinished = 0;
  const failedByCode: Record<string, number> = {};
  for (const { result, unfinished: cut } of runs) {
    if (result.ok) completed++;
    else if (cut) unfinished++;
    else {
      const code = result.code ?? 'no code';
      failedByCode[code] = (failedByCode[code] ?? 0) + 1;
    }
  }
  return { completed, failedByCode, unfinished };
}

interface Disconnect {
  bot: string;
  reason: string;
  /** performance.now() when the bot heard it was disconnected. */
  at: number;
}

/** Every plan that did not complete, and every connection lost (when, from the plans' start), on stderr. */
function report(runs: readonly PlanRun[], disconnects: readonly Disconnect[], bots: number, started: number): void {
  const lines = runs.flatMap(({ result, unfinished }) =>
    result.ok
      ? []
      : [
          `${result.planId} at ${result.steps.at(-1)?.step.stepId ?? 'its start'}: ${unfinished ? `unfinished at the ${PLAN_LIMIT_MS / 1000} s limit` : `failed ${result.code}`} ${result.detail ?? ''}`,
        ],
  );
  if (lines.length > 0)
    process.stderr.write(
      `embedded fleet: ${lines.length} of ${bots} plans did not complete:\n  ${lines.join('\n  ')}\n`,
    );
  if (disconnects.length > 0)
    process.stderr.write(
      `embedded fleet: ${disconnects.length} bots lost their connection during the plans:\n  ${disconnects
        .map(({ bot, reason, at }) => `${bot} at ${((at - started) / 1000).toFixed(1)} s: ${reason}`)
        .join('\n  ')}\n`,
    );
}
