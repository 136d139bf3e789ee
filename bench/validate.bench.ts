import { createDefaultRegistry } from '../capabilities/index.js';
import { Plan, validatePlan } from '../src/index.js';
import type { BenchResult } from './types.js';

function hundredStepPlan() {
  const steps = Array.from({ length: 100 }, (_, i) =>
    i % 2 === 0
      ? { stepId: `s${i}`, type: 'navigate', args: { target: { kind: 'near', x: i, y: 0, z: -i, range: 2 } } }
      : { stepId: `s${i}`, type: 'navigate', version: '^1', args: { target: { kind: 'block', x: i, y: 4, z: i } } },
  );
  return { planId: 'bench', intentId: 'bench', steps };
}

function stepsPerSecond(run: () => void, steps: number, minMs = 1_000): number {
  for (let i = 0; i < 50; i++) run();
  let iterations = 0;
  const start = performance.now();
  while (performance.now() - start < minMs) {
    run();
    iterations++;
  }
  return (iterations * steps) / ((performance.now() - start) / 1000);
}

/**
 * Whole-plan validation (hostile-input scan, shape, verb resolution, argument schemas) against a bare zod parse of the
 * plan's shape.
 */
export default function validateBench(): Promise<BenchResult[]> {
  const registry = createDefaultRegistry();
  const plan = hundredStepPlan();
  const report = validatePlan(plan, registry);
  if (!report.ok) throw new Error(`bench plan is invalid: ${JSON.stringify(report.issues[0])}`);
  const bare = stepsPerSecond(() => Plan.safeParse(plan), 100);
  const full = stepsPerSecond(() => validatePlan(plan, registry), 100);
  return Promise.resolve([
    { name: 'validatePlan, 100-step plan', value: full, unit: 'steps/s', baseline: bare, ratio: full / bare },
  ]);
}
