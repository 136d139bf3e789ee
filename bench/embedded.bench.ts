import { createDefaultRegistry } from '../capabilities/index.js';
import { SystemClock } from '../src/clock/index.js';
import { assembleLoaded, loadTrees } from '../src/executor/assemble.js';
import type { ExecutorEvent, PlanResult } from '../src/executor/events.js';
import { startEmbeddedWorld, type EmbeddedWorld } from '../src/world/embedded/index.js';
import type { MineflayerWorld } from '../src/world/mineflayer/index.js';
import { parseScenario } from '../src/world/scenario/index.js';
import type { BenchResult } from './types.js';

/**
 * The real world's figures, on the embedded flying-squid server with real
 * mineflayer bots and real time (the server runs in this process, so CPU and
 * memory include its share):
 * - TTFA (step dispatch to first actuator command) p50/p95 per capability, each
 *   verb run RUNS times by its own bot, the ten bots at once; the spec allows
 *   2000 ms (the baseline), the goal is p95 <= 75 ms.
 * - How many bots one process runs plans for at once: BOTS bots connect and each
 *   walks to its own spot, places a block and digs it again, all concurrently;
 *   completed plans, wall time, CPU and memory per bot.
 */

const SPEC_TTFA_MS = 2000;
const RUNS = 10;
const BOTS = 50;
const CONNECT_BATCH = 10;
/** A plan still running after this is counted as not completed and cancelled. */
const PLAN_LIMIT_MS = 30_000;

const VERBS = ['navigate', 'dig_block', 'place_block', 'craft_item', 'consume_food', 'collect_drops', 'build_structure', 'flee', 'pillar_up', 'equip'] as const;
type Verb = (typeof VERBS)[number];
type Step = { stepId: string; type: string; args: Record<string, unknown> };
type Cell = { x: number; y: number; z: number };

const registry = createDefaultRegistry();
const clock = new SystemClock();

/**
 * Each verb's bot works in its own bay: centres 6 blocks apart on a line 8
 * blocks from the spawn; the rows it digs or fills run away from the spawn, so
 * every bay stays open toward it.
 */
const centre = (verb: Verb): Cell => ({ x: -27 + VERBS.indexOf(verb) * 6, y: 5, z: 8 });
/** The cells a verb's runs dig, place or build at: a row beside its centre, one per run. */
const row = (verb: Verb, dx: number, run: number): Cell => ({ x: centre(verb).x + dx, y: 5, z: centre(verb).z - 4 + run });

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const mb = (bytes: number) => bytes / 1024 / 1024;

/** The plan of one measured run of `verb`; preparing the world (food, the drop to collect) is part of it where needed. */
function runOf(verb: Verb, run: number, bot: MineflayerWorld): Step[] {
  const id = `${verb}-${run}`;
  const { x, z } = centre(verb);
  switch (verb) {
    case 'navigate':
      return [{ stepId: id, type: verb, args: { target: { kind: 'xz', x: run % 2 ? x : x + 3, z, range: 0.5 } } }];
    case 'dig_block':
      return [{ stepId: id, type: verb, args: { position: row(verb, 2, run), block: 'dirt' } }];
    case 'place_block':
      return [{ stepId: id, type: verb, args: { position: row(verb, -2, run), item: 'cobblestone' } }];
    case 'craft_item':
      return [{ stepId: id, type: verb, args: { item: 'oak_planks', count: 1 } }];
    case 'consume_food':
      return [{ stepId: id, type: verb, args: { item: 'bread' } }];
    case 'collect_drops':
      return [
        { stepId: `${id}-dig`, type: 'dig_block', args: { position: row(verb, 2, run), block: 'dirt' } },
        { stepId: id, type: verb, args: { item: 'dirt', radius: 6 } },
      ];
    case 'build_structure':
      return [{ stepId: id, type: verb, args: { origin: row(verb, -2, run), blueprint: { blocks: [{ dx: 0, dy: 0, dz: 0, block: 'cobblestone' }] } } }];
    case 'flee': {
      const at = bot.position();
      return [{ stepId: id, type: verb, args: { from: { x: Math.floor(at.x) + (run % 2 ? 1 : -1), y: 5, z: Math.floor(at.z) }, distance: 5 } }];
    }
    case 'pillar_up':
      return [{ stepId: id, type: verb, args: { height: 1, block: 'dirt' } }];
    case 'equip':
      return [{ stepId: id, type: verb, args: { item: run % 2 ? 'bread' : 'stone_axe' } }];
  }
}

/** Sets food to 10 on the server and waits until the bot has heard, so each meal run starts hungry. */
async function hungry(world: EmbeddedWorld, bot: MineflayerWorld): Promise<void> {
  world.server.setFood(bot.bot.username, 10);
  while (bot.food() !== 10) await new Promise((resolve) => setTimeout(resolve, 10));
}

async function runPlan(world: MineflayerWorld, loaded: Awaited<ReturnType<typeof loadTrees>>, planId: string, steps: Step[], events: ExecutorEvent[]): Promise<PlanResult> {
  const { executor, runner } = assembleLoaded({ registry, world, clock, loaded });
  executor.events.on('event', (event) => events.push(event));
  const signal = AbortSignal.timeout(PLAN_LIMIT_MS);
  try {
    return await executor.run({ planId, intentId: 'bench', steps }, { signal }).result;
  } finally {
    await runner.shutdown();
  }
}

const ttfasOf = (events: readonly ExecutorEvent[], verb?: string): number[] =>
  events.flatMap((e) => (e.type === 'step.firstAction' && (verb === undefined || e.verb === verb) ? [e.ttfaMs] : [])).sort((a, b) => a - b);

async function ttfaPerCapability(loaded: Awaited<ReturnType<typeof loadTrees>>): Promise<BenchResult[]> {
  const dirt = (verb: Verb) => Array.from({ length: RUNS }, (_, run) => ({ ...row(verb, 2, run), block: 'dirt' as const }));
  const world = await startEmbeddedWorld({
    clock,
    scenario: parseScenario({
      name: 'bench-ttfa',
      blocks: [...dirt('dig_block'), ...dirt('collect_drops')],
      bot: { food: 10, inventory: { dirt: 32, cobblestone: 32, oak_log: 16, bread: 16, stone_axe: 1 } },
    }),
  });
  try {
    const failures: string[] = [];
    const samples = await Promise.all(
      VERBS.map(async (verb) => {
        const bot = await world.connectBot(`ttfa-${verb}`);
        const events: ExecutorEvent[] = [];
        // Walk to the verb's own corner first (not measured), so the bots keep out of each other's way.
        await runPlan(bot, loaded, `${verb}-walk`, [{ stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', ...centre(verb) } } }], []);
        for (let run = 0; run < RUNS; run++) {
          if (verb === 'consume_food') await hungry(world, bot);
          const result = await runPlan(bot, loaded, `${verb}-${run}`, runOf(verb, run, bot), events);
          if (!result.ok) failures.push(`${verb} run ${run}: ${result.code} ${result.detail ?? ''}`);
        }
        return { verb, ttfa: ttfasOf(events, verb) };
      }),
    );
    if (failures.length > 0) process.stderr.write(`embedded bench: ${failures.length} TTFA runs failed:\n  ${failures.join('\n  ')}\n`);
    const results: BenchResult[] = [];
    for (const { verb, ttfa } of samples) {
      for (const p of [50, 95]) {
        const value = percentile(ttfa, p);
        results.push({ name: `embedded ttfa p${p} ${verb} (n=${ttfa.length})`, value, unit: 'ms', baseline: SPEC_TTFA_MS, ratio: value / SPEC_TTFA_MS });
      }
    }
    results.push({ name: 'embedded ttfa runs failed', value: failures.length, unit: 'runs', baseline: VERBS.length * RUNS });
    return results;
  } finally {
    await world.stop();
  }
}

/** Bot i's spot on a 10 x 5 grid around the spawn, 3 blocks apart in x and 5 in z. */
const spot = (i: number): Cell => ({ x: -14 + (i % 10) * 3, y: 5, z: -10 + Math.floor(i / 10) * 5 });

async function manyBots(loaded: Awaited<ReturnType<typeof loadTrees>>): Promise<BenchResult[]> {
  const world = await startEmbeddedWorld({ clock, scenario: parseScenario({ name: 'bench-many-bots', bot: { inventory: { dirt: 4 } } }) });
  try {
    const memBefore = process.memoryUsage();
    const connectStarted = performance.now();
    const bots: MineflayerWorld[] = [];
    for (let i = 0; i < BOTS; i += CONNECT_BATCH) {
      const batch = Array.from({ length: Math.min(CONNECT_BATCH, BOTS - i) }, (_, j) => world.connectBot(`many-${i + j}`));
      bots.push(...(await Promise.all(batch)));
    }
    const connectMs = performance.now() - connectStarted;
    const memConnected = process.memoryUsage();

    const events: ExecutorEvent[] = [];
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const results = await Promise.all(
      bots.map((bot, i) => {
        const { x, z } = spot(i);
        const cell = () => ({ x, y: 5, z: z + 2 });
        return runPlan(bot, loaded, `many-${i}`, [
          { stepId: 'spread', type: 'navigate', args: { target: { kind: 'block', x, y: 5, z } } },
          { stepId: 'place', type: 'place_block', args: { position: cell(), item: 'dirt' } },
          { stepId: 'dig', type: 'dig_block', args: { position: cell(), block: 'dirt' } },
        ], events);
      }),
    );
    const wallMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    const memAfter = process.memoryUsage();
    const completed = results.filter((result) => result.ok).length;
    const failed = results.filter((result) => !result.ok).map((result) => `${result.planId}: ${result.code} ${result.detail ?? ''}`);
    if (failed.length > 0) process.stderr.write(`embedded bench: ${failed.length} of ${BOTS} bot plans failed:\n  ${failed.join('\n  ')}\n`);
    const ttfa = ttfasOf(events);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    return [
      { name: `embedded bots connected at once`, value: bots.length, unit: 'bots', baseline: BOTS },
      { name: `embedded connect ${BOTS} bots (batches of ${CONNECT_BATCH})`, value: connectMs, unit: 'ms' },
      { name: `embedded plans completed, ${BOTS} bots at once (navigate+place+dig)`, value: completed, unit: 'plans', baseline: BOTS, ratio: completed / BOTS },
      { name: `embedded wall time, ${BOTS} concurrent plans`, value: wallMs, unit: 'ms' },
      { name: `embedded ttfa p50 under ${BOTS} bots (n=${ttfa.length})`, value: percentile(ttfa, 50), unit: 'ms', baseline: SPEC_TTFA_MS, ratio: percentile(ttfa, 50) / SPEC_TTFA_MS },
      { name: `embedded ttfa p95 under ${BOTS} bots (n=${ttfa.length})`, value: percentile(ttfa, 95), unit: 'ms', baseline: SPEC_TTFA_MS, ratio: percentile(ttfa, 95) / SPEC_TTFA_MS },
      { name: 'embedded CPU per bot per plan (incl. server)', value: cpuMs / BOTS, unit: 'ms' },
      { name: 'embedded CPU load while running plans', value: (cpuMs / wallMs) * 100, unit: '% of a core' },
      { name: 'embedded RSS per connected bot (incl. server)', value: mb(memConnected.rss - memBefore.rss) / BOTS, unit: 'MB' },
      { name: 'embedded heap per connected bot (incl. server)', value: mb(memConnected.heapUsed - memBefore.heapUsed) / BOTS, unit: 'MB' },
      { name: 'embedded RSS per bot after its plan (incl. server)', value: mb(memAfter.rss - memBefore.rss) / BOTS, unit: 'MB' },
      { name: 'embedded heap per bot after its plan (incl. server)', value: mb(memAfter.heapUsed - memBefore.heapUsed) / BOTS, unit: 'MB' },
    ];
  } finally {
    await world.stop();
  }
}

export default async function embeddedBench(): Promise<BenchResult[]> {
  const loaded = await loadTrees(registry);
  return [...(await ttfaPerCapability(loaded)), ...(await manyBots(loaded))];
}
