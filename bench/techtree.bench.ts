import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDefaultRegistry } from '../capabilities/index.js';
import { goalPlanner } from '../examples/goal-planner/goal-planner.js';
import { ManualClock, SystemClock } from '../src/clock/index.js';
import type { Clock } from '../src/contracts/clock.js';
import { assembleLoaded, loadTrees } from '../src/executor/assemble.js';
import type { ExecutorEvent, PlanResult } from '../src/executor/events.js';
import { startEmbeddedWorld } from '../src/world/embedded/index.js';
import { simWorldFromScenario } from '../src/world/sim-scenario.js';
import { watchHealth } from './health-watch.js';
import { defenceCounter, type Defences, techtreeScenario } from './techtree-survival.js';
import type { BenchOptions, BenchResult } from './types.js';

/**
 * The tech tree from an empty inventory, driven by the reference goal planner
 * (examples/goal-planner): one run per generated survival world (terrain seeds
 * 1–10) to an iron pickaxe, in SimWorld (game time) and on the embedded server
 * with a real bot on the first `--server-seeds` of them (wall time, default 3;
 * a run there takes about two minutes). Each milestone is the moment its
 * pickaxe is crafted and verified; the counts are those up to that moment.
 * Every failure is printed with its code.
 * `--survival`: the same worlds from dusk with the daylight cycle running and hostiles spawning at night
 * (techtree-survival.ts); each run also prints its deaths (the world's health at 0, as the night bench counts them),
 * the damage it took and the safety layer's defences.
 */

const MILESTONES = ['wooden_pickaxe', 'stone_pickaxe', 'iron_pickaxe'] as const;
const GOAL = 'iron_pickaxe';
const SEEDS = 10;
const SERVER_SEEDS = 3;

interface Reached {
  ms: number;
  steps: number;
  retries: number;
  repairs: number;
  escalations: number;
}

interface Run {
  seed: number;
  result: PlanResult;
  reached: Partial<Record<(typeof MILESTONES)[number], Reached>>;
  /** Each retry, repair and escalation up to the goal (or the end), named by its cause. */
  recoveries: string[];
  deaths: number;
  damage: number;
  defences: Defences;
}

const intent = {
  id: `techtree-${GOAL}`,
  source: 'user' as const,
  goal: `have ${GOAL}`,
  urgency: 0.5,
  safety: { allowed: true },
};

/** Watches a run's events and notes when each milestone's craft step ends ok, and the counts so far. */
function milestoneWatcher(clock: Clock, started: number) {
  const reached: Run['reached'] = {};
  const crafting = new Map<string, string>();
  const counts = { steps: 0, retries: 0, repairs: 0, escalations: 0 };
  const recoveries: string[] = [];
  const on = (event: ExecutorEvent) => {
    if (event.type === 'step.started' && event.verb === 'craft_item')
      crafting.set(event.stepId, String((event.args as { item?: unknown }).item));
    const cause = recoveryCause(event);
    if (cause && !reached[GOAL]) recoveries.push(cause);
    if (event.type === 'step.retry') counts.retries++;
    if (event.type === 'step.repair') counts.repairs++;
    if (event.type === 'plan.escalated') counts.escalations++;
    if (event.type !== 'step.ended') return;
    counts.steps++;
    const item = crafting.get(event.stepId) as (typeof MILESTONES)[number] | undefined;
    if (event.outcome.ok && item && MILESTONES.includes(item) && !reached[item])
      reached[item] = { ms: clock.now() - started, ...counts };
  };
  return { on, reached, recoveries };
}

/** A recovery's cause as the bench counts it: the verb that failed, and the failure's code. */
function recoveryCause(event: ExecutorEvent): string | null {
  if (event.type === 'step.retry') return `retry ${event.verb}: ${event.code}`;
  if (event.type === 'step.repair') return `repair ${event.verb}: ${event.code}`;
  if (event.type === 'plan.escalated') return `escalation: ${event.code}`;
  return null;
}

type Loaded = Awaited<ReturnType<typeof loadTrees>>;

async function onSim(loaded: Loaded, seed: number, nights: boolean): Promise<Run> {
  const clock = new ManualClock();
  const world = simWorldFromScenario(techtreeScenario(seed, nights), { clock, seed });
  const health = watchHealth(clock, () => world.health());
  const { executor } = assembleLoaded({
    registry: createDefaultRegistry(),
    world,
    clock,
    loaded,
    planner: goalPlanner({ arm: nights }),
    policy: { seed },
  });
  const watcher = milestoneWatcher(clock, clock.now());
  executor.events.on('event', watcher.on);
  const counter = defenceCounter();
  executor.events.on('event', counter.on);
  const events = traced(executor.events);
  let result: PlanResult | undefined;
  void executor.run(intent).result.then((r) => (result = r));
  await clock.runUntil(() => result !== undefined, 3_600_000);
  health.stop();
  await writeTrace('SimWorld', seed, events);
  const run = { seed, result: result!, reached: watcher.reached, recoveries: watcher.recoveries };
  return report('SimWorld', { ...run, deaths: health.deaths, damage: health.damage, defences: counter.defences });
}

async function onServer(loaded: Loaded, seed: number, nights: boolean): Promise<Run> {
  const clock = new SystemClock();
  const world = await startEmbeddedWorld({ clock, scenario: techtreeScenario(seed, nights) });
  const health = watchHealth(clock, () => world.server.player('techtree')?.health);
  try {
    const bot = await world.connectBot('techtree');
    const { executor, runner } = assembleLoaded({
      registry: createDefaultRegistry(),
      world: bot,
      clock,
      loaded,
      planner: goalPlanner({ arm: nights }),
    });
    const watcher = milestoneWatcher(clock, clock.now());
    executor.events.on('event', watcher.on);
    const counter = defenceCounter();
    executor.events.on('event', counter.on);
    const events = traced(executor.events);
    const result = await executor.run(intent).result;
    await runner.shutdown();
    await writeTrace('the embedded server', seed, events);
    const run = { seed, result, reached: watcher.reached, recoveries: watcher.recoveries };
    return report('the embedded server', {
      ...run,
      deaths: health.deaths,
      damage: health.damage,
      defences: counter.defences,
    });
  } finally {
    health.stop();
    await world.stop();
  }
}

/** One line a run: the goal's time or the failure, deaths, damage taken and defences. */
function report(where: string, run: Run): Run {
  const { fights, flights, shelters, meals, hunts } = run.defences;
  const outcome = run.result.ok ? `${GOAL} in ${((run.reached[GOAL]?.ms ?? 0) / 1000).toFixed(0)} s` : run.result.code;
  process.stderr.write(
    `techtree ${where} seed ${run.seed}: ${outcome}; ${run.deaths} deaths, ${run.damage.toFixed(1)} damage taken, ` +
      `${fights} fights, ${flights} flights, ${shelters} shelters, ${meals} meals, ${hunts} hunts\n`,
  );
  return run;
}

/** Every event of a run, one JSON a line, collected as it goes. */
function traced(emitter: ReturnType<typeof assembleLoaded>['executor']['events']): string[] {
  const events: string[] = [];
  emitter.on('event', (event: ExecutorEvent) => events.push(JSON.stringify(event)));
  return events;
}

/**
 * Every event of a run, where the cause of each recovery and each defence can be read after the bench (SimWorld's
 * too: its night world 10 died from a defence choice that only its events told).
 */
async function writeTrace(where: 'SimWorld' | 'the embedded server', seed: number, events: string[]): Promise<void> {
  // One directory per bench process: runs of other sessions on the same machine would overwrite seed-N.jsonl.
  const dir = join(tmpdir(), `verbtree-techtree-${process.pid}`);
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${where === 'SimWorld' ? 'sim-' : ''}seed-${seed}.jsonl`);
  await writeFile(file, events.join('\n') + '\n');
  process.stderr.write(`techtree ${where} seed ${seed}: events in ${file}\n`);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

function summarise(where: string, runs: Run[]): BenchResult[] {
  const mean = (values: number[]) => (values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length);
  for (const run of runs.filter((r) => !r.result.ok))
    process.stderr.write(`techtree ${where} seed ${run.seed}: ${run.result.code}: ${run.result.detail}\n`);
  const results: BenchResult[] = [];
  for (const milestone of MILESTONES) {
    const reached = runs.flatMap((run) => (run.reached[milestone] ? [run.reached[milestone]] : []));
    const name = (what: string) => `techtree ${milestone} on ${where}: ${what}`;
    results.push(
      { name: name(`success of ${runs.length}`), value: (100 * reached.length) / runs.length, unit: '%' },
      {
        name: name(where === 'SimWorld' ? 'game time, median' : 'wall time, median'),
        value: median(reached.map((r) => r.ms)) / 1000,
        unit: 's',
      },
      { name: name('steps, mean (sub-goals included)'), value: mean(reached.map((r) => r.steps)), unit: 'steps' },
      {
        name: name('retries / repairs / escalations, mean'),
        value: mean(reached.map((r) => r.retries + r.repairs + r.escalations)),
        unit: 'count',
      },
    );
  }
  return [...results, ...survivalFigures(where, runs), ...recoveriesByCause(where, runs)];
}

/** Deaths in all, and the damage taken and defences per run: the median, with each run's figure in the name. */
function survivalFigures(where: string, runs: Run[]): BenchResult[] {
  const perRun = (what: string, unit: string, values: number[]): BenchResult => ({
    name: `techtree ${what} on ${where} (per run: ${values.map((v) => +v.toFixed(1)).join(', ')})`,
    value: median(values),
    unit,
  });
  return [
    { name: `techtree deaths on ${where}`, value: runs.reduce((sum, r) => sum + r.deaths, 0), unit: 'deaths' },
    perRun(
      'damage taken',
      'health, median',
      runs.map((r) => r.damage),
    ),
    perRun(
      'fights',
      'median',
      runs.map((r) => r.defences.fights),
    ),
    perRun(
      'flights',
      'median',
      runs.map((r) => r.defences.flights),
    ),
    perRun(
      'shelters',
      'median',
      runs.map((r) => r.defences.shelters),
    ),
  ];
}

/** Recoveries per run, in all and per cause: the median over the runs, and each run's count in the name. */
function recoveriesByCause(where: string, runs: Run[]): BenchResult[] {
  const causes = [...new Set(runs.flatMap((run) => run.recoveries))].sort();
  const row = (what: string, counts: number[]): BenchResult => ({
    name: `techtree recoveries on ${where}: ${what} (per run: ${counts.join(', ')})`,
    value: median(counts),
    unit: 'median',
  });
  return [
    row(
      'all causes',
      runs.map((run) => run.recoveries.length),
    ),
    ...causes.map((cause) =>
      row(
        cause,
        runs.map((run) => run.recoveries.filter((c) => c === cause).length),
      ),
    ),
  ];
}

/**
 * The worlds to run: every one in SimWorld and the first `--server-seeds` on the server; with `--worlds`, only those
 * (on the server too, unless `--server-seeds 0`), so that a world that went wrong can be re-run alone with its trace.
 */
export function chosenWorlds(options: BenchOptions): { sim: number[]; server: number[] } {
  const every = Array.from({ length: SEEDS }, (_, i) => i + 1);
  if (options.worlds) return { sim: options.worlds, server: options.serverSeeds === 0 ? [] : options.worlds };
  return { sim: every, server: every.slice(0, options.serverSeeds ?? SERVER_SEEDS) };
}

export default async function techtreeBench(options: BenchOptions): Promise<BenchResult[]> {
  const loaded = await loadTrees(createDefaultRegistry());
  const simRuns: Run[] = [];
  const nights = options.survival ?? false;
  const { sim, server } = chosenWorlds(options);
  for (const seed of sim) simRuns.push(await onSim(loaded, seed, nights));
  const serverRuns: Run[] = [];
  for (const seed of server) serverRuns.push(await onServer(loaded, seed, nights));
  return [
    ...summarise('SimWorld', simRuns),
    ...(serverRuns.length > 0 ? summarise('the embedded server', serverRuns) : []),
  ];
}
