import { describe, expect, it } from 'vitest';
import { createExecutorMetrics } from '../../src/api/metrics.js';

const repair = (strategy: string) =>
  ({
    type: 'step.repair',
    at: 0,
    planId: 'p',
    stepId: 'walk',
    verb: 'navigate',
    strategy,
    code: 'preempted',
    detail: 'zombie 3.0 blocks away',
  }) as const;

describe('verbtree_repairs_total', () => {
  it('counts every defence under one strategy label, whatever mobs its strategy names', async () => {
    const metrics = createExecutorMetrics();
    metrics.observe(repair('defence: dig_in from 3 zombies and a skeleton'));
    metrics.observe(repair('defence: attack_entity from a zombie'));
    metrics.observe(repair('leave_shelter before the step'));
    const { values } = await metrics.registry.getSingleMetric('verbtree_repairs_total')!.get();
    expect(values.map((v) => [v.labels.strategy, v.value])).toEqual([
      ['defence', 2],
      ['leave_shelter before the step', 1],
    ]);
  });
});
