import { describe, expect, it } from 'vitest';
import type { PlanResult } from '../../src/executor/events.js';
import { harness, plan } from '../../test/helpers/executor.js';

const guard = (forMs: number, radius?: number) => ({
  stepId: 'guard',
  type: 'guard_area',
  args: { forMs, ...(radius ? { radius } : {}) },
});

describe('guard_area runs end to end on SimWorld', () => {
  it('clears the area of the hostiles inside it (dead, or driven out by the hits), one that comes later too, leaves the one outside, and ends at its post', async () => {
    const h = await harness({});
    const inside = [
      h.world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: 4.5, y: 0, z: 2.5 } }),
      h.world.spawnEntity({ name: 'skeleton', kind: 'hostile', position: { x: -3.5, y: 0, z: -2.5 } }),
    ];
    const outside = h.world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: 20.5, y: 0, z: 0.5 } });
    let late = -1;
    h.clock.setTimeout(
      () => (late = h.world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: 0.5, y: 0, z: 6.5 } })),
      40_000,
    );
    const result = await h.run(plan(guard(60_000)), 200_000);
    expect(result.ok, JSON.stringify(result.steps.map((s) => s.outcome))).toBe(true);
    const inArea = h.world
      .entities()
      .filter((e) => Math.hypot(e.position.x - 0.5, e.position.z - 0.5) <= 8)
      .map((e) => e.id);
    expect(inArea).toEqual([]);
    expect(late).toBeGreaterThan(0);
    expect(h.world.entities().map((e) => e.id)).toContain(outside);
    expect(inside.length).toBe(2);
    const { x, z } = h.world.position();
    expect(Math.hypot(x - 0.5, z - 0.5)).toBeLessThanOrEqual(3);
    expect(h.events.filter((e) => e.type === 'step.stuck' || e.type === 'safety.emergency')).toEqual([]);
  });

  it('against zombies by the rules, ends with none inside: one still inside when a fight outlasts the watch is fought to its death', async () => {
    const h = await harness({ ground: { radius: 40 }, timeOfDay: 18_000, inventory: { iron_sword: 1 } });
    for (const [x, z] of [
      [4, 3],
      [16, -2],
    ] as const)
      h.world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: x + 0.5, y: 0, z: z + 0.5 }, ai: true });
    const result = await h.run(plan(guard(5_000, 8)), 200_000);
    expect(result.ok, JSON.stringify(result.steps.map((s) => s.outcome))).toBe(true);
    // No mob within 8 (what the zombies dropped may lie there).
    const near = h.world.entities().filter((e) => Math.hypot(e.position.x - 0.5, e.position.z - 0.5) <= 8);
    expect(near.filter((e) => e.kind !== 'item')).toEqual([]);
    const { x, z } = h.world.position();
    expect(Math.hypot(x - 0.5, z - 0.5)).toBeLessThanOrEqual(3);
  });

  it('a quiet area is held without a stuck detection, and a cancelled run ends the step aborted', async () => {
    const h = await harness({});
    const run = h.assembly.executor.run(plan(guard(600_000)));
    let result: PlanResult | undefined;
    void run.result.then((r) => (result = r));
    h.clock.setTimeout(() => run.cancel('relieved of duty'), 90_000);
    await h.clock.runUntil(() => result !== undefined, 200_000);
    expect(result!.steps[0]!.outcome).toMatchObject({ ok: false, code: 'aborted' });
    expect(h.events.filter((e) => e.type === 'step.stuck')).toEqual([]);
    expect(h.world.liveActuators()).toBe(0);
  });
});
