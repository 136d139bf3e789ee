import { describe, expect, it } from 'vitest';
import { harness, plan } from '../../test/helpers/executor.js';

const eat = (args: Record<string, unknown> = {}) => ({ stepId: 'eat', type: 'consume_food', args });

describe('consume_food runs end to end on SimWorld', () => {
  it('holds and eats the food that best fits the hunger deficit, verified', async () => {
    const h = await harness({ food: 10, inventory: { bread: 2, cooked_beef: 1 } });
    const result = await h.run(plan(eat()));
    expect(result).toMatchObject({ ok: true, steps: [{ outcome: { ok: true }, attempts: 1 }] });
    expect(h.world.actuatorLog.map((entry) => [entry.command, entry.detail])).toEqual([
      ['equip', 'cooked_beef to hand'],
      ['consume', 'cooked_beef'],
    ]);
    expect(h.world.food()).toBe(18);
    expect(h.world.inventory()).toEqual({ bread: 2 });
  });

  it('is atomic: a hostile arriving mid-meal waits for the meal to end, then the fast path runs', async () => {
    const h = await harness({ food: 10, inventory: { bread: 1 } });
    h.clock.setTimeout(
      () => h.world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: 3.5, y: 0, z: 0.5 } }),
      500,
    );
    const result = await h.run(plan(eat({ item: 'bread' })));
    expect(result.steps[0]!.outcome).toEqual({ ok: true });
    expect(h.world.actuatorLog.find((entry) => entry.command === 'consume')).toMatchObject({ outcome: 'ok' });
    expect(h.world.food()).toBe(15);
    const order = h.events
      .map((e) => e.type)
      .filter((t) => ['step.preempted', 'safety.emergency', 'step.ended'].includes(t));
    expect(order).toEqual(['step.preempted', 'safety.emergency', 'step.ended', 'step.ended']);
  });

  it('fails with precondition_missing when the named food is not held', async () => {
    const h = await harness({ food: 10, inventory: { bread: 1 } });
    const result = await h.run(plan(eat({ item: 'cooked_beef' })));
    expect(result.steps[0]!.outcome).toMatchObject({ ok: false, code: 'precondition_missing' });
    expect(h.world.actuatorLog).toEqual([]);
    expect(h.world.food()).toBe(10);
  });
});
