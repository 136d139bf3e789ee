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
import { parseScenario, type Scenario } from '../src/world/scenario/index.js';
import { simWorldFromScenario } from '../src/world/sim-scenario.js';
import type { BenchOptions, BenchResult } from './types.js';

/**
 * The tech tree from an empty inventory, driven by the reference goal planner
 * (examples/goal-planner): one run per generated survival world (terrain seeds
 * 1–10) to an iron pickaxe, in SimWorld (game time) and on the embedded server
 * with a real bot on the first `--server-seeds` of them (wall time, default 3;
 * a run there takes about two minutes). Each milestone is the moment its
 * pickaxe is crafted and verified; the counts are those up to that moment.
 * Every failure is printed with its code.
 */

const MILESTONES = ['wooden_pickaxe', 'stone_pickaxe', 'iron_pickaxe'] as const;
const GOAL = 'iron_pickaxe';
const SEEDS = 10;
const SERVER_SEEDS = 3;

const survival = (seed: number): Scenario =>
  parseScenario({ name: `survival-${seed}`, terrain: { kind: 'survival', seed } }, `survival seed ${seed}`);

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

async function onSim(loaded: Awaited<ReturnType<typeof loadTrees>>, seed: number): Promise<Run> {
  const clock = new ManualClock();
  const world = simWorldFromScenario(survival(seed), { clock, seed });
  const { executor } = assembleLoaded({
    registry: createDefaultRegistry(),
    world,
    clock,
    loaded,
    planner: goalPlanner(),
    policy: { seed },
  });
  const watcher = milestoneWatcher(clock, clock.now());
  executor.events.on('event', watcher.on);
  let result: PlanResult | undefined;
  void executor.run(intent).result.then((r) => (result = r));
  await clock.runUntil(() => result !== undefined, 3_600_000);
  return { seed, result: result!, reached: watcher.reached, recoveries: watcher.recoveries };
}

async function onServer(loaded: Awaited<ReturnType<typeof loadTrees>>, seed: number): Promise<Run> {
  const clock = new SystemClock();
  const world = await startEmbeddedWorld({ clock, scenario: survival(seed) });
  try {
    const bot = await world.connectBot('techtree');
    const { executor, runner } = assembleLoaded({
      registry: createDefaultRegistry(),
      world: bot,
      clock,
      loaded,
      planner: goalPlanner(),
    });
    const watcher = milestoneWatcher(clock, clock.now());
    executor.events.on('event', watcher.on);
    const events: string[] = [];
    executor.events.on('event', (event: ExecutorEvent) => events.push(JSON.stringify(event)));
    const result = await executor.run(intent).result;
    await runner.shutdown();
    await writeTrace(seed, events);
    process.stderr.write(
      `techtree the embedded server seed ${seed}: ${result.ok ? `${GOAL} in ${((watcher.reached[GOAL]?.ms ?? 0) / 1000).toFixed(0)} s` : `${result.code}`}\n`,
    );
    return { seed, result, reached: watcher.reached, recoveries: watcher.recoveries };
  } finally {
    await world.stop();
  }
}

/** Every event of a server run, one JSON a line, where the cause of each recovery can be read after the bench. */
async function writeTrace(seed: number, events: string[]): Promise<void> {
  const dir = join(tmpdir(), 'verbtree-techtree');
  await mkdir(dir, { recursive: true });
  const file = join(dir, `seed-${seed}.jsonl`);
  await writeFile(file, events.join('\n') + '\n');
  process.stderr.write(`techtree the embedded server seed ${seed}: events in ${file}\n`);
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
  return [...results, ...recoveriesByCause(where, runs)];
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

export default async function techtreeBench(options: BenchOptions): Promise<BenchResult[]> {
  const loaded = await loadTrees(createDefaultRegistry());
  const simRuns: Run[] = [];
  for (let seed = 1; seed <= SEEDS; seed++) simRuns.push(await onSim(loaded, seed));
  const serverRuns: Run[] = [];
  for (let seed = 1; seed <= (options.serverSeeds ?? SERVER_SEEDS); seed++)
    serverRuns.push(await onServer(loaded, seed));
  return [
    ...summarise('SimWorld', simRuns),
    ...(serverRuns.length > 0 ? summarise('the embedded server', serverRuns) : []),
  ];
}
