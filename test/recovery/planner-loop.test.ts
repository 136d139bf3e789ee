import { describe, expect, it } from 'vitest';
import { DEFAULT_RECOVERY_CONFIG } from '../../src/recovery/config.js';
import { jaccard, PlannerLoopDetector, planSignature } from '../../src/recovery/planner-loop.js';

const plan = (...steps: Array<[string, Record<string, unknown>]>) => ({
  steps: steps.map(([type, args]) => ({ type, args })),
});
const woodPlan = (x: number) =>
  plan(
    ['navigate', { x, y: 64, z: 10 }],
    ['dig_block', { block: 'oak_log', count: 3 }],
    ['craft_item', { item: 'oak_planks' }],
  );

describe('plan signature and Jaccard similarity', () => {
  it('tokenizes verbs and verb.arg=value pairs, independent of key order', () => {
    expect([...planSignature(plan(['navigate', { z: 1, x: 2 }]))].sort()).toEqual([
      'navigate',
      'navigate.x=2',
      'navigate.z=1',
    ]);
    expect(planSignature(plan(['dig_block', { at: { y: 1, x: 0 } }]))).toEqual(
      planSignature(plan(['dig_block', { at: { x: 0, y: 1 } }])),
    );
  });

  it('scores shared tokens over all tokens', () => {
    expect(jaccard(new Set(['a', 'b']), new Set(['b', 'c']))).toBeCloseTo(1 / 3);
    expect(jaccard(planSignature(woodPlan(1)), planSignature(woodPlan(1)))).toBe(1);
    expect(jaccard(planSignature(woodPlan(1)), planSignature(woodPlan(2)))).toBeCloseTo(8 / 10);
  });
});

describe('PlannerLoopDetector', () => {
  it('flags planner.loop when a new plan is >= 0.6 similar to each of the last 3 failed plans', () => {
    const detector = new PlannerLoopDetector(DEFAULT_RECOVERY_CONFIG.plannerLoop);
    detector.recordFailed(woodPlan(1), 'stuck.path: no path to 1,64,10');
    detector.recordFailed(woodPlan(2), 'stuck.path: no path to 2,64,10');
    expect(detector.check(woodPlan(3))).toBeNull();
    detector.recordFailed(woodPlan(3), 'stuck.position: walled in');
    const flag = detector.check(woodPlan(4));
    expect(flag).toMatchObject({ code: 'planner.loop', similarities: [0.8, 0.8, 0.8], threshold: 0.6 });
    expect(flag?.nudge).toContain('<planner-loop>');
    expect(flag?.nudge).toContain('stuck.position: walled in');
    expect(flag?.nudge).toContain('materially different plan');
  });

  it('does not flag when any one of the last 3 failed plans was different, nor after a reset', () => {
    const detector = new PlannerLoopDetector(DEFAULT_RECOVERY_CONFIG.plannerLoop);
    detector.recordFailed(woodPlan(1), 'a');
    detector.recordFailed(plan(['place_block', { item: 'dirt' }], ['navigate', { x: 50, y: 70, z: -3 }]), 'b');
    detector.recordFailed(woodPlan(2), 'c');
    expect(detector.check(woodPlan(3))).toBeNull();
    detector.recordFailed(woodPlan(4), 'd');
    expect(detector.check(woodPlan(5))).toBeNull();
    detector.recordFailed(woodPlan(6), 'e');
    expect(detector.check(woodPlan(7))?.code).toBe('planner.loop');
    detector.reset();
    expect(detector.check(woodPlan(7))).toBeNull();
  });
});
