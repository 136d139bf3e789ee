import { createDefaultRegistry } from '../capabilities/index.js';
import { SystemClock } from '../src/clock/index.js';
import { assembleLoaded, loadTrees } from '../src/executor/assemble.js';
import type { PlanResult } from '../src/executor/events.js';
import { injectFaults } from '../src/executor/fault-injection.js';
import { startEmbeddedWorld } from '../src/world/embedded/index.js';
import { parseFaultSpecs } from '../src/world/faults/index.js';
import { parseScenario, type ScenarioInput } from '../src/world/scenario/index.js';
import type { BenchResult } from './types.js';

/**
 * Time to truth on the embedded server with a real bot and real time: how
 * long a hopeless step takes to end explicitly, and with which code. The goal
 * (the baseline column) is 15 s. Each case runs in its own world:
 * - boxed: the bot in a 1x2 cell of bedrock, six sides closed, sent 8 blocks away;
 * - sealed: the goal cell inside a bedrock shell, the bot free;
 * - hang: an open walk whose navigate actuator never settles (--fault navigate=hang).
 */

const GOAL_MS = 15_000;
const SPAWN = { x: 0, y: 5, z: 0 };
const GOAL = { x: 8, y: 5, z: 0 };
const clock = new SystemClock();

type Case = { name: string; scenario: ScenarioInput; faults: string[] };

const shell = (centre: { x: number; y: number; z: number }) => [
  {
    from: { x: centre.x - 1, y: centre.y - 1, z: centre.z - 1 },
    to: { x: centre.x + 1, y: centre.y + 2, z: centre.z + 1 },
    block: 'bedrock',
  },
  { from: centre, to: { ...centre, y: centre.y + 1 }, block: 'air' },
];

const CASES: Case[] = [
  {
    name: 'boxed in on six sides',
    scenario: { name: 'truth-boxed', spawn: SPAWN, fills: shell(SPAWN), bot: { inventory: { dirt: 8 } } },
    faults: [],
  },
  {
    name: 'goal sealed in unbreakable blocks',
    scenario: { name: 'truth-sealed', spawn: SPAWN, fills: shell(GOAL), bot: { inventory: { dirt: 8 } } },
    faults: [],
  },
  { name: 'navigate actuator hangs', scenario: { name: 'truth-hang', spawn: SPAWN }, faults: ['navigate=hang'] },
];

async function timeToTruth(
  loaded: Awaited<ReturnType<typeof loadTrees>>,
  registry: ReturnType<typeof createDefaultRegistry>,
  c: Case,
): Promise<{ ms: number; code: string }> {
  const world = await startEmbeddedWorld({ clock, scenario: parseScenario(c.scenario) });
  try {
    const bot = await world.connectBot('truth');
    const rules = parseFaultSpecs(c.faults);
    const { executor, runner } = assembleLoaded({
      registry,
      world: bot,
      clock,
      loaded,
      wrapInvoker: (invoker) => injectFaults(invoker, rules, { clock, seed: 1 }),
    });
    const started = performance.now();
    const result: PlanResult = await executor.run({
      planId: c.scenario.name,
      intentId: 'bench',
      steps: [{ stepId: 'go', type: 'navigate', args: { target: { kind: 'block', ...GOAL } } }],
    }).result;
    const ms = performance.now() - started;
    await runner.shutdown();
    const step = result.steps.find((s) => s.step.stepId === 'go');
    const code = result.ok ? 'ok' : step && !step.outcome.ok ? step.outcome.code : (result.code ?? 'unknown');
    if (!result.ok)
      process.stderr.write(
        `time to truth, ${c.name}: ${code} after ${(ms / 1000).toFixed(1)} s: ${step && !step.outcome.ok ? step.outcome.detail : result.detail}\n`,
      );
    return { ms, code };
  } finally {
    await world.stop();
  }
}

export default async function truthBench(): Promise<BenchResult[]> {
  const registry = createDefaultRegistry();
  const loaded = await loadTrees(registry);
  const results: BenchResult[] = [];
  for (const c of CASES) {
    const { ms, code } = await timeToTruth(loaded, registry, c);
    results.push({
      name: `time to truth: ${c.name} (ends ${code})`,
      value: ms,
      unit: 'ms',
      baseline: GOAL_MS,
      ratio: ms / GOAL_MS,
    });
  }
  return results;
}
