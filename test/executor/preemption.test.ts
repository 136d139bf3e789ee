import { describe, expect, it } from 'vitest';
import type { EventOf, PlanResult } from '../../src/executor/events.js';
import type { Planner } from '../../src/executor/planner.js';
import { harness, plan } from '../helpers/executor.js';

const walkFar = {
  stepId: 'walk-far',
  type: 'navigate',
  args: { target: { kind: 'near', x: 20, y: 0, z: 0, range: 1 } },
};

/** Turns an intent into a one-step plan that puts the axe in hand. */
const planner: Planner = {
  name: 'intent-planner',
  plan(intent) {
    return Promise.resolve({
      planId: `for-${intent.id}`,
      intentId: intent.id,
      steps: [{ stepId: 'grab-axe', type: 'equip', args: { item: 'stone_axe' } }],
    });
  },
  onFailure() {
    return Promise.resolve({ giveUp: 'test planner does not repair' });
  },
};

const intent = (id: string, urgency: number) => ({
  id,
  source: 'user' as const,
  goal: 'hold the axe',
  urgency,
  safety: { allowed: true },
});

describe('preemption', () => {
  it('an urgent intent preempts the running step, runs, and the step resumes and completes', async () => {
    const h = await harness({ inventory: { stone_axe: 1 }, ground: { radius: 30 } }, { planner });
    const results: Record<string, PlanResult> = {};
    void h.assembly.executor.run(plan(walkFar)).result.then((r) => (results.routine = r));
    await h.clock.advance(1_000);
    void h.assembly.executor.run(intent('urgent', 0.9)).result.then((r) => (results.urgent = r));
    await h.clock.runUntil(() => results.routine !== undefined && results.urgent !== undefined, 120_000);

    expect(results.urgent).toMatchObject({ ok: true, planId: 'for-urgent' });
    expect(results.routine).toMatchObject({ ok: true, steps: [{ outcome: { ok: true }, attempts: 1 }] });
    const order = h.events
      .filter((e) => ['step.preempted', 'step.resumed', 'plan.ended', 'step.ended'].includes(e.type))
      .map((e) => `${e.type}:${e.planId}`);
    expect(order).toEqual([
      'step.preempted:test-plan',
      'step.ended:for-urgent',
      'plan.ended:for-urgent',
      'step.resumed:test-plan',
      'step.ended:test-plan',
      'plan.ended:test-plan',
    ]);
    expect(h.events.find((e): e is EventOf<'step.preempted'> => e.type === 'step.preempted')).toMatchObject({
      by: 'urgent_intent',
    });
    expect(h.world.heldItem()).toBe('stone_axe');
  });

  it('a routine intent waits for the running plan instead', async () => {
    const h = await harness({ inventory: { stone_axe: 1 }, ground: { radius: 30 } }, { planner });
    let done = 0;
    void h.assembly.executor.run(plan(walkFar)).result.then(() => done++);
    await h.clock.advance(1_000);
    void h.assembly.executor.run(intent('routine', 0.3)).result.then(() => done++);
    await h.clock.runUntil(() => done === 2, 120_000);
    expect(h.events.some((e) => e.type === 'step.preempted')).toBe(false);
    expect(h.events.filter((e) => e.type === 'plan.ended').map((e) => e.planId)).toEqual(['test-plan', 'for-routine']);
  });

  it('with fights avoided, a hostile nearby preempts a walk with the flee fast path, then the walk resumes', async () => {
    const h = await harness({ ground: { radius: 40 } }, { policy: { safety: { combat: 'avoid' } } });
    let result: PlanResult | undefined;
    void h.assembly.executor.run(plan(walkFar)).result.then((r) => (result = r));
    await h.clock.advance(1_000);
    const at = h.world.position();
    h.world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: at.x + 2, y: 0, z: at.z } });
    await h.clock.runUntil(() => result !== undefined, 120_000);
    expect(h.events.find((e) => e.type === 'safety.emergency')).toMatchObject({ signal: 'hostile', response: 'flee' });
    expect(h.events.some((e) => e.type === 'step.started' && e.verb === 'flee')).toBe(true);
    expect(h.events.some((e) => e.type === 'step.resumed')).toBe(true);
  });
});
