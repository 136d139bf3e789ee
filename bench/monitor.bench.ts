import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import WebSocket from 'ws';
import { createDefaultRegistry } from '../capabilities/index.js';
import { apiBot, type ApiBot } from '../src/api/bots.js';
import { NodeFeed } from '../src/api/node-feed.js';
import { createApiServer } from '../src/api/server.js';
import { systemClock } from '../src/clock/index.js';
import type { RunInput } from '../src/executor/executor.js';
import { assembleJournaled, type JournaledAssembly } from '../src/journal/journaled-executor.js';
import { openJournal } from '../src/journal/open.js';
import { mergeHooks, type RuntimeHooks } from '../src/runtime/hooks.js';
import { SimWorld } from '../src/world/sim/index.js';
import type { BenchOptions, BenchResult } from './types.js';

/**
 * What watching costs the bots: `bots` SimWorld bots (real time) each run the same plan at once, journaled,
 * first with no one watching (the baseline), then served by the API with their node feeds and two monitor
 * clients reading the stream. The runtime reports every node change of every tree tick; the stream carries
 * them batched per bot every 100 ms, so what the clients receive should not grow with the ticks.
 */

const TOKEN = 'bench';
const registry = createDefaultRegistry();

const plan = (i: number): RunInput => ({
  planId: `watch-${i}`,
  intentId: 'bench',
  steps: [
    { stepId: 'out', type: 'navigate', args: { target: { kind: 'block', x: 6, y: 0, z: (i % 7) - 3 } } },
    { stepId: 'planks', type: 'craft_item', args: { item: 'oak_planks', count: 4 } },
    { stepId: 'back', type: 'navigate', args: { target: { kind: 'block', x: 0, y: 0, z: 0 } } },
  ],
});

interface Arm {
  wallMs: number;
  cpuMs: number;
  loopP99Ms: number;
  completed: number;
  nodeChanges: number;
  messages: number;
  nodeMessages: number;
  bytes: number;
}

async function arm(bots: number, watched: boolean): Promise<Arm> {
  const journal = await openJournal(join(mkdtempSync(join(tmpdir(), 'verbtree-bench-monitor-')), 'journal.db'));
  const assemblies: JournaledAssembly[] = [];
  const served: ApiBot[] = [];
  const feed = watched ? new NodeFeed(systemClock) : null;
  let nodeChanges = 0;
  const counter: RuntimeHooks = { nodeStates: ({ changes }) => void (nodeChanges += changes.length) };
  for (let i = 0; i < bots; i++) {
    const world = SimWorld.create({ clock: systemClock, seed: i, inventory: { oak_log: 1 } });
    const hooks = mergeHooks(counter, feed?.hooksFor(`bot-${i}`));
    const assembly = await assembleJournaled({ registry, world, clock: systemClock, journal, kind: 'serve', hooks });
    assemblies.push(assembly);
    served.push(apiBot(`bot-${i}`, assembly));
  }
  const api = feed
    ? createApiServer({ journal, journalPath: ':bench:', registry, token: TOKEN, bots: served, nodeFeed: feed })
    : null;
  const clients: WebSocket[] = [];
  const received = { messages: 0, nodeMessages: 0, bytes: 0 };
  if (api) {
    const { url } = await api.listen(0);
    for (let c = 0; c < 2; c++) {
      const ws = new WebSocket(`${url.replace('http', 'ws')}/api/events`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      ws.on('message', (data: Buffer) => {
        received.messages++;
        received.bytes += data.length;
        if (data.includes('"type":"nodes"')) received.nodeMessages++;
      });
      await new Promise((resolve) => ws.once('open', resolve));
      clients.push(ws);
    }
  }
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const cpu = process.cpuUsage();
  const started = performance.now();
  const results = await Promise.all(assemblies.map(async (assembly, i) => (await assembly.run(plan(i))).result));
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  loop.disable();
  for (const ws of clients) ws.close();
  await api?.close();
  feed?.close();
  for (const assembly of assemblies) await assembly.close();
  await journal.close();
  return {
    wallMs,
    cpuMs: (used.user + used.system) / 1000,
    loopP99Ms: loop.percentile(99) / 1e6,
    completed: results.filter((r) => r.ok).length,
    nodeChanges,
    // Per client: both read the same stream.
    messages: received.messages / 2,
    nodeMessages: received.nodeMessages / 2,
    bytes: received.bytes / 2,
  };
}

export default async function monitorBench(options: BenchOptions): Promise<BenchResult[]> {
  const bots = options.bots ?? 50;
  // A small round of each first, so neither measured arm pays for compiling the code the other then reuses.
  await arm(5, false);
  await arm(5, true);
  const alone = await arm(bots, false);
  const watched = await arm(bots, true);
  const seconds = watched.wallMs / 1000;
  const label = `monitor feed, ${bots} SimWorld bots`;
  return [
    {
      name: `${label}: plans completed, watched by 2 clients`,
      value: watched.completed,
      unit: 'plans',
      baseline: alone.completed,
      ratio: watched.completed / Math.max(1, alone.completed),
    },
    {
      name: `${label}: wall time, watched vs unwatched`,
      value: watched.wallMs,
      unit: 'ms',
      baseline: alone.wallMs,
      ratio: watched.wallMs / alone.wallMs,
    },
    {
      name: `${label}: CPU, watched vs unwatched`,
      value: watched.cpuMs,
      unit: 'ms',
      baseline: alone.cpuMs,
      ratio: watched.cpuMs / alone.cpuMs,
    },
    {
      name: `${label}: event-loop delay p99, watched vs unwatched`,
      value: watched.loopP99Ms,
      unit: 'ms',
      baseline: alone.loopP99Ms,
      ratio: watched.loopP99Ms / alone.loopP99Ms,
    },
    {
      name: `${label}: node messages a client got vs node changes the runtime reported`,
      value: watched.nodeMessages,
      unit: 'messages',
      baseline: watched.nodeChanges,
      ratio: watched.nodeMessages / Math.max(1, watched.nodeChanges),
    },
    { name: `${label}: stream messages per second per client`, value: watched.messages / seconds, unit: 'msg/s' },
    { name: `${label}: stream bytes per second per client`, value: watched.bytes / seconds, unit: 'B/s' },
  ];
}
