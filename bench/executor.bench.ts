import { createDefaultRegistry } from '../capabilities/index.js';
import { ManualClock } from '../src/clock/index.js';
import { assembleLoaded, loadTrees } from '../src/executor/assemble.js';
import { SimWorld } from '../src/world/sim/index.js';
import type { BenchResult } from './types.js';

/**
 * The executor's own cost per step (validation, guard, observation before and
 * after, dispatch, supervision, acceptance, events) on SimWorld with virtual
 * time, against the tree runner alone running the same capability's tree:
 * the wall time measured is all overhead, since the world's time is virtual.
 */

const registry = createDefaultRegistry();
const equipStep = (i: number) => ({ stepId: `s${i}`, type: 'equip', args: { item: i % 2 ? 'stone_axe' : 'dirt' } });
const inventory = { stone_axe: 1, dirt: 4 };

async function runPlans(
  streams: number,
  stepsPerPlan: number,
  loaded: Awaited<ReturnType<typeof loadTrees>>,
): Promise<number> {
  const clock = new ManualClock();
  let pending = streams;
  const started = performance.now();
  for (let s = 0; s < streams; s++) {
    const world = SimWorld.create({ clock, inventory, recordActuatorLog: false });
    const { executor } = assembleLoaded({ registry, world, clock, loaded });
    const steps = Array.from({ length: stepsPerPlan }, (_, i) => equipStep(i));
    void executor.run({ planId: `p${s}`, intentId: 'bench', steps }).result.then(() => pending--);
  }
  await clock.runUntil(() => pending === 0, 3_600_000);
  if (pending !== 0) throw new Error(`${pending} plans did not finish`);
  return performance.now() - started;
}

async function treeRunnerAlone(steps: number, loaded: Awaited<ReturnType<typeof loadTrees>>): Promise<number> {
  const clock = new ManualClock();
  const world = SimWorld.create({ clock, inventory, recordActuatorLog: false });
  const { runner } = assembleLoaded({ registry, world, clock, loaded });
  const started = performance.now();
  for (let i = 0; i < steps; i++) {
    let done = false;
    void runner.run('equip', { args: equipStep(i).args, world }).then(() => (done = true));
    await clock.runUntil(() => done, 60_000);
  }
  return performance.now() - started;
}

export default async function executorBench(): Promise<BenchResult[]> {
  const loaded = await loadTrees(registry);
  await runPlans(1, 50, loaded);
  await treeRunnerAlone(50, loaded);
  const steps = 500;
  const executorMs = await runPlans(1, steps, loaded);
  const treeMs = await treeRunnerAlone(steps, loaded);
  const perStep = (executorMs / steps) * 1000;
  const treePerStep = (treeMs / steps) * 1000;
  const streams = 1000;
  const perStream = 10;
  const fleetMs = await runPlans(streams, perStream, loaded);
  return [
    {
      name: 'executor, one equip step end to end',
      value: perStep,
      unit: 'µs/step',
      baseline: treePerStep,
      ratio: perStep / treePerStep,
    },
    { name: 'executor overhead per step (over the tree run)', value: perStep - treePerStep, unit: 'µs/step' },
    { name: 'steps per second, one stream', value: steps / (executorMs / 1000), unit: 'steps/s' },
    {
      name: `steps per second, ${streams} streams side by side`,
      value: (streams * perStream) / (fleetMs / 1000),
      unit: 'steps/s',
    },
  ];
}
