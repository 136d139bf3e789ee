import { createDefaultRegistry } from '../capabilities/index.js';
import { goalPlanner } from '../examples/goal-planner/goal-planner.js';
import { ManualClock, SystemClock } from '../src/clock/index.js';
import { assembleLoaded, loadTrees } from '../src/executor/assemble.js';
import type { PlanResult } from '../src/executor/events.js';
import { startEmbeddedWorld } from '../src/world/embedded/index.js';
import { parseScenario, type Scenario } from '../src/world/scenario/index.js';
import { simWorldFromScenario } from '../src/world/sim-scenario.js';
import type { BenchResult } from './types.js';

/**
 * The tech tree from an empty inventory, driven by the reference goal planner
 * (examples/goal-planner): per milestone, on 10 generated survival worlds
 * (terrain seeds 1–10) in SimWorld (game time), and on the embedded server
 * with a real bot on the first SERVER_SEEDS of them (wall time). Every failure
 * is printed with its code.
 */

const MILESTONES = ['wooden_pickaxe', 'stone_pickaxe'] as const;
const SEEDS = 10;
const SERVER_SEEDS = 3;

const survival = (seed: number): Scenario => parseScenario({ name: `survival-${seed}`, terrain: { kind: 'survival', seed } }, `survival seed ${seed}`);

interface Outcome {
  result: PlanResult;
  ms: number;
}

const intent = (item: string) => ({ id: `techtree-${item}`, source: 'user' as const, goal: `have ${item}`, urgency: 0.5, safety: { allowed: true } });

async function onSim(loaded: Awaited<ReturnType<typeof loadTrees>>, scenario: Scenario, item: string, seed: number): Promise<Outcome> {
  const clock = new ManualClock();
  const world = simWorldFromScenario(scenario, { clock, seed });
  const { executor } = assembleLoaded({ registry: createDefaultRegistry(), world, clock, loaded, planner: goalPlanner(), policy: { seed } });
  let result: PlanResult | undefined;
  void executor.run(intent(item)).result.then((r) => (result = r));
  await clock.runUntil(() => result !== undefined, 1_800_000);
  return { result: result!, ms: clock.now() };
}

async function onServer(loaded: Awaited<ReturnType<typeof loadTrees>>, scenario: Scenario, item: string): Promise<Outcome> {
  const clock = new SystemClock();
  const world = await startEmbeddedWorld({ clock, scenario });
  try {
    const bot = await world.connectBot('techtree');
    const { executor, runner } = assembleLoaded({ registry: createDefaultRegistry(), world: bot, clock, loaded, planner: goalPlanner() });
    const started = performance.now();
    const result = await executor.run(intent(item)).result;
    await runner.shutdown();
    return { result, ms: performance.now() - started };
  } finally {
    await world.stop();
  }
}

function summarise(where: string, item: string, outcomes: Outcome[]): BenchResult[] {
  const ok = outcomes.filter((o) => o.result.ok);
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  const sum = (pick: (r: PlanResult) => number) => outcomes.reduce((n, o) => n + pick(o.result), 0) / outcomes.length;
  for (const o of outcomes.filter((x) => !x.result.ok)) process.stderr.write(`techtree ${where} ${item}: ${o.result.code}: ${o.result.detail}\n`);
  const name = (what: string) => `techtree ${item} on ${where}: ${what}`;
  return [
    { name: name('success'), value: (100 * ok.length) / outcomes.length, unit: '%' },
    { name: name(where === 'SimWorld' ? 'game time, median' : 'wall time, median'), value: median(outcomes.map((o) => o.ms)) / 1000, unit: 's' },
    { name: name('steps, mean (sub-goals included)'), value: sum((r) => r.steps.length), unit: 'steps' },
    { name: name('retries / repairs / escalations, mean'), value: sum((r) => r.retries + r.repairs + r.escalations), unit: 'count' },
  ];
}

export default async function techtreeBench(): Promise<BenchResult[]> {
  const loaded = await loadTrees(createDefaultRegistry());
  const results: BenchResult[] = [];
  for (const item of MILESTONES) {
    const outcomes: Outcome[] = [];
    for (let seed = 1; seed <= SEEDS; seed++) outcomes.push(await onSim(loaded, survival(seed), item, seed));
    results.push(...summarise('SimWorld', item, outcomes));
  }
  const served: Outcome[] = [];
  for (let seed = 1; seed <= SERVER_SEEDS; seed++) served.push(await onServer(loaded, survival(seed), 'stone_pickaxe'));
  results.push(...summarise('the embedded server', 'stone_pickaxe', served));
  return results;
}
