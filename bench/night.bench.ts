import Table from 'cli-table3';
import { createDefaultRegistry } from '../capabilities/index.js';
import { SystemClock } from '../src/clock/index.js';
import { assembleLoaded, loadTrees } from '../src/executor/assemble.js';
import { countByKind } from '../src/executor/safety/index.js';
import { deriveSeed, mulberry32 } from '../src/random.js';
import { startEmbeddedWorld } from '../src/world/embedded/index.js';
import { parseScenario } from '../src/world/scenario/index.js';
import { HEALTH_SAMPLE_MS, watchHealth } from './health-watch.js';
import type { BenchOptions, BenchResult } from './types.js';

/**
 * A night's work under attack (issue 30 §5): a real bot on the embedded server, at midnight with the mobs' AI on, sent
 * to fell 3 logs from a trunk 12 blocks east while hostiles stand 8 to 16 blocks around it. One row per encounter
 * (0, 2, 4 or 8 hostiles: zombies; zombies and a skeleton; zombies and a creeper) and kit (bare hands; a wooden
 * sword; a stone sword and leather armour, put on first), each over N placements of the mobs (`--placements`, default
 * 10; seeded, the same every run). A row: how many runs completed the task (the plan ended ok), deaths (the server
 * held the bot at 0 health, or it respawned between two samples), the median damage taken (every drop of the server's
 * health summed) and the median time.
 * `--rows zombies-2/stone,creeper` runs only the rows whose label contains one of the texts; `NIGHT_VERBOSE=1` prints
 * each run's events and every change of the bot's health with the mobs around it (how a death came about).
 */

const PLACEMENTS = 10;
const TRUNK = { x: 12, z: 0 };
const LOGS = 3;
/** Mobs are put this far from the bot's spawn (0,5,0), at seeded angles. */
const NEAREST = 8;
const FARTHEST = 16;

interface Kit {
  key: string;
  inventory: Record<string, number>;
  wear: string[];
}

const LEATHER = ['leather_helmet', 'leather_chestplate', 'leather_leggings', 'leather_boots'];
const KITS: Kit[] = [
  { key: 'bare', inventory: {}, wear: [] },
  { key: 'wooden', inventory: { wooden_sword: 1 }, wear: [] },
  { key: 'stone', inventory: { stone_sword: 1, ...Object.fromEntries(LEATHER.map((i) => [i, 1])) }, wear: LEATHER },
];

interface Encounter {
  key: string;
  mobs: string[];
}

function encounters(): Encounter[] {
  const list: Encounter[] = [{ key: 'none-0', mobs: [] }];
  for (const n of [2, 4, 8]) {
    const zombies = Array.from({ length: n - 1 }, () => 'zombie');
    list.push({ key: `zombies-${n}`, mobs: [...zombies, 'zombie'] });
    list.push({ key: `skeleton-${n}`, mobs: [...zombies, 'skeleton'] });
    list.push({ key: `creeper-${n}`, mobs: [...zombies, 'creeper'] });
  }
  return list;
}

interface RunFigures {
  completed: boolean;
  deaths: number;
  damage: number;
  seconds: number;
}

/** The mobs of placement `p`: each at a seeded angle and distance from the spawn, on the grass (y 5). */
function place(encounter: Encounter, p: number) {
  const random = mulberry32(deriveSeed(p, encounter.key));
  return encounter.mobs.map((name) => {
    const angle = random() * 2 * Math.PI;
    const distance = NEAREST + random() * (FARTHEST - NEAREST);
    return { name, x: Math.round(Math.cos(angle) * distance), y: 5, z: Math.round(Math.sin(angle) * distance) };
  });
}

async function runOnce(
  loaded: Awaited<ReturnType<typeof loadTrees>>,
  encounter: Encounter,
  kit: Kit,
  p: number,
): Promise<RunFigures> {
  const clock = new SystemClock();
  const trunk = Array.from({ length: LOGS }, (_, i) => ({ ...TRUNK, y: 5 + i, block: 'oak_log' }));
  const scenario = parseScenario({
    name: `night-${encounter.key}-${kit.key}-${p}`,
    timeOfDay: 18_000,
    bot: { inventory: kit.inventory },
    blocks: trunk,
    mobs: place(encounter, p),
  });
  const world = await startEmbeddedWorld({ clock, scenario });
  const username = 'worker';
  const health = watchHealth(clock, () => world.server.player(username)?.health);
  try {
    const bot = await world.connectBot(username);
    const { executor, runner } = assembleLoaded({ registry: createDefaultRegistry(), world: bot, clock, loaded });
    const steps = [
      ...kit.wear.map((item, i) => ({ stepId: `wear-${i}`, type: 'equip', args: { item, destination: slotOf(item) } })),
      { stepId: 'fell', type: 'collect_block', args: { block: 'oak_log', count: LOGS } },
    ];
    const started = clock.now();
    const run = executor.run({ planId: scenario.name, intentId: scenario.name, steps });
    if (process.env.NIGHT_VERBOSE) traceRun(run, world, bot, username, started);
    const result = await run.result;
    const seconds = (clock.now() - started) / 1000;
    await runner.shutdown();
    return { completed: result.ok, deaths: health.deaths, damage: health.damage, seconds };
  } finally {
    health.stop();
    await world.stop();
  }
}

/** NIGHT_VERBOSE=1: each event of the run (bar progress), with the bot's health and the mobs around it, on stderr. */
function traceRun(
  run: ReturnType<ReturnType<typeof assembleLoaded>['executor']['run']>,
  world: Awaited<ReturnType<typeof startEmbeddedWorld>>,
  bot: Awaited<ReturnType<Awaited<ReturnType<typeof startEmbeddedWorld>>['connectBot']>>,
  username: string,
  started: number,
): void {
  let last = 20;
  const watch = setInterval(() => {
    const now = world.server.player(username)?.health ?? last;
    if (now !== last) {
      const at = bot.position();
      const mobs = bot
        .entities()
        .filter((e) => e.kind === 'hostile')
        .map((e) => `${e.name}@${Math.hypot(e.position.x - at.x, e.position.z - at.z).toFixed(1)}`);
      process.stderr.write(
        `  health ${last} -> ${now} at ${at.x.toFixed(1)},${at.z.toFixed(1)} held ${bot.heldItem()} ${mobs.join(' ')}\n`,
      );
    }
    last = now;
    if (now <= 0) clearInterval(watch);
  }, HEALTH_SAMPLE_MS);
  void run.result.finally(() => clearInterval(watch));
  void (async () => {
    for await (const event of run) {
      if (event.type === 'step.progress') continue;
      const player = world.server.player(username);
      const { type, at, ...rest } = event;
      const detail = JSON.stringify(rest).slice(0, 400);
      process.stderr.write(`${((at - started) / 1000).toFixed(1)}s health ${player?.health} ${type} ${detail}\n`);
    }
  })();
}

function slotOf(item: string): string {
  if (item.endsWith('_helmet')) return 'head';
  if (item.endsWith('_chestplate')) return 'torso';
  return item.endsWith('_leggings') ? 'legs' : 'feet';
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export default async function night(options: BenchOptions): Promise<BenchResult[]> {
  const placements = options.placements ?? PLACEMENTS;
  const loaded = await loadTrees(createDefaultRegistry());
  const table = new Table({ head: ['row', 'hostiles', 'completed', 'deaths', 'median damage', 'median time (s)'] });
  const results: BenchResult[] = [];
  for (const encounter of encounters())
    for (const kit of KITS) {
      const label = `${encounter.key}/${kit.key}`;
      if (options.rows && !options.rows.some((text) => label.includes(text))) continue;
      const runs: RunFigures[] = [];
      for (let p = 0; p < placements; p++) runs.push(await runOnce(loaded, encounter, kit, p));
      const completed = runs.filter((r) => r.completed).length;
      const deaths = runs.reduce((sum, r) => sum + r.deaths, 0);
      const damage = median(runs.map((r) => r.damage));
      const seconds = median(runs.map((r) => r.seconds));
      const hostiles = encounter.mobs.length === 0 ? 'none' : countByKind(encounter.mobs.map((name) => ({ name })));
      table.push([label, hostiles, `${completed}/${placements}`, deaths, damage.toFixed(1), seconds.toFixed(1)]);
      results.push(
        { name: `night ${label}: completed`, value: (100 * completed) / placements, unit: '%' },
        { name: `night ${label}: deaths`, value: deaths, unit: 'deaths' },
        { name: `night ${label}: median damage taken`, value: damage, unit: 'health' },
        { name: `night ${label}: median time`, value: seconds, unit: 's' },
      );
    }
  process.stderr.write(`${table.toString()}\n`);
  return results;
}
