import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import navigate from '../../capabilities/navigate/index.js';
import { CapabilityRegistry, defineCapability } from '../../src/index.js';
import type { EventOf } from '../../src/executor/events.js';
import { harness, plan } from '../helpers/executor.js';

/** Wants sticks; its only sub-goal walks a little, which never produces sticks. */
const needsSticks = defineCapability({
  name: 'use_sticks',
  version: '1.0.0',
  description: 'test capability whose sub-goal cannot satisfy its guard',
  // It borrows navigate's tree (its guard never lets the tree run), so it takes that tree's $target.
  inputSchema: z.strictObject({ target: z.unknown().optional() }),
  safetyLevel: 'safe',
  expectedDurationMs: 1000,
  retryableCodes: [],
  preconds: ['has_item(stick)'],
  effects: [],
  tree: 'navigate',
  guard: ({ observation }) =>
    (observation.inventory.stick ?? 0) > 0
      ? { ok: true }
      : { ok: false, reason: 'no sticks', missing: { predicate: 'has_item', detail: { item: 'stick', count: 1 } } },
  acceptance: () => ({ ok: true }),
  subgoals: (_missing, _args, { observation }) => [
    {
      stepId: 'wander',
      type: 'navigate',
      args: { target: { kind: 'near', x: Math.round(observation.position.x) + 1, y: 0, z: 0, range: 1 } },
    },
  ],
});

const registry = () => new CapabilityRegistry().register(navigate).register(needsSticks);
const treePaths = ['trees/navigate.mdsl'];

describe('guards and sub-goals', () => {
  it('stops with guard_failed when the same guard fails the same way more than twice (FM-02)', async () => {
    const h = await harness({}, { registry: registry(), treePaths });
    const result = await h.run(plan({ stepId: 'craft', type: 'use_sticks', args: {} }));
    expect(result).toMatchObject({ ok: false, code: 'guard_failed' });
    expect(result.detail).toContain('the guard failed the same way 3 times without progress: no sticks');
    const subgoals = h.events.filter((e): e is EventOf<'step.subgoal'> => e.type === 'step.subgoal');
    expect(subgoals).toHaveLength(2);
    expect(subgoals[0]).toMatchObject({
      stepId: 'craft',
      subgoalStepIds: ['craft/wander'],
      missing: { predicate: 'has_item', detail: { item: 'stick', count: 1 } },
    });
    const subSteps = h.events.filter(
      (e): e is EventOf<'step.started'> => e.type === 'step.started' && e.parentStepId === 'craft',
    );
    expect(subSteps).toHaveLength(2);
  });

  it('fails with precondition_missing at once when the capability declares no sub-goal', async () => {
    const withoutSubgoals = defineCapability({ ...needsSticks, subgoals: undefined });
    const h = await harness(
      {},
      { registry: new CapabilityRegistry().register(navigate).register(withoutSubgoals), treePaths },
    );
    const result = await h.run(plan({ stepId: 'craft', type: 'use_sticks', args: {} }));
    expect(result).toMatchObject({ ok: false, code: 'precondition_missing', detail: 'no sticks' });
    expect(h.world.actuatorLog).toEqual([]);
  });

  it('refuses an intent whose safety.allowed is false, dispatching nothing', async () => {
    const h = await harness();
    let result: Awaited<ReturnType<typeof h.run>> | undefined;
    void h.assembly.executor
      .run({
        id: 'i1',
        source: 'user',
        goal: 'jump into lava',
        urgency: 0.3,
        safety: { allowed: false, reason: 'lethal' },
      })
      .result.then((r) => (result = r));
    await h.clock.runUntil(() => result !== undefined, 1000);
    expect(result).toMatchObject({ ok: false, code: 'intent_refused', detail: 'intent i1 refused: lethal' });
    expect(h.events.map((e) => e.type)).toEqual(['plan.rejected', 'plan.ended']);
  });

  it('keeps exactly one step active per stream, even with runs submitted together (I1)', async () => {
    const h = await harness();
    const walk = (id: string, x: number) => ({
      stepId: id,
      type: 'navigate',
      args: { target: { kind: 'near', x, y: 0, z: 0, range: 1 } },
    });
    const a = h.assembly.executor.run({ ...plan(walk('a1', 4), walk('a2', 0)), planId: 'A' });
    const b = h.assembly.executor.run({ ...plan(walk('b1', -4)), planId: 'B' });
    let done = 0;
    void a.result.then(() => done++);
    void b.result.then(() => done++);
    await h.clock.runUntil(() => done === 2, 60_000);
    let active = 0;
    let maxActive = 0;
    for (const event of h.events) {
      if (event.type === 'step.started') maxActive = Math.max(maxActive, ++active);
      if (event.type === 'step.ended') active--;
    }
    expect(maxActive).toBe(1);
    expect(h.events.filter((e) => e.type === 'plan.ended').map((e) => e.planId)).toEqual(['A', 'B']);
  });

  it("streams a run's events to a for-await consumer", async () => {
    const h = await harness();
    const run = h.assembly.executor.run(
      plan({ stepId: 'w', type: 'navigate', args: { target: { kind: 'near', x: 3, y: 0, z: 0, range: 1 } } }),
    );
    const seen: string[] = [];
    const consumed = (async () => {
      for await (const event of run) seen.push(event.type);
    })();
    await h.clock.runUntil(() => seen.includes('plan.ended'), 10_000);
    await consumed;
    expect(seen).toContain('step.progress');
    expect(seen.filter((type) => type !== 'step.progress')).toEqual([
      'plan.accepted',
      'agent.state',
      'step.started',
      'step.expects',
      'attempt.started',
      'step.firstAction',
      'step.ended',
      'agent.state',
      'plan.ended',
    ]);
  });
});
