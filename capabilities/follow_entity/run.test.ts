import { describe, expect, it } from 'vitest';
import type { PlanResult } from '../../src/executor/events.js';
import { harness, plan } from '../../test/helpers/executor.js';
import { match } from '../../test/helpers/matchers.js';

const follow = (target: { id: number } | { name: string }, forMs: number, range?: number) => ({
  stepId: 'follow',
  type: 'follow_entity',
  args: { target, forMs, ...(range ? { range } : {}) },
});

describe('follow_entity runs end to end on SimWorld', () => {
  it('keeps within range of a cow that wanders off, for the time asked, and ends beside it', async () => {
    const h = await harness({});
    const cow = h.world.spawnEntity({ name: 'cow', kind: 'passive', position: { x: 2.5, y: 0, z: 0.5 } });
    // The cow walks 4 blocks east every 5 s.
    for (let step = 1; step <= 3; step++)
      h.clock.setTimeout(() => h.world.moveEntity(cow, { x: 2.5 + 4 * step, y: 0, z: 0.5 }), 5_000 * step);
    const result = await h.run(plan(follow({ name: 'cow' }, 20_000)), 120_000);
    expect(result.ok, JSON.stringify(result.steps.map((s) => s.outcome))).toBe(true);
    expect(h.world.position().x).toBeGreaterThan(10);
    expect(h.world.actuatorLog.filter((e) => e.command === 'goto').length).toBeGreaterThanOrEqual(3);
    expect(h.events.filter((e) => e.type === 'step.stuck')).toEqual([]);
  });

  it('standing by a cow that does not move for a minute is not being stuck: no stuck.loop, the step ends ok', async () => {
    const h = await harness({});
    const cow = h.world.spawnEntity({ name: 'cow', kind: 'passive', position: { x: 1.5, y: 0, z: 1.5 } });
    const result = await h.run(plan(follow({ id: cow }, 60_000)), 120_000);
    expect(result.ok, JSON.stringify(result.steps.map((s) => s.outcome))).toBe(true);
    expect(h.events.filter((e) => e.type === 'step.stuck' || e.type === 'step.retry')).toEqual([]);
    expect(h.world.actuatorLog.map((e) => e.command)).toEqual(['look']);
  });

  it('a cancelled run ends the follow explicitly: the step is aborted, the walk stopped, nothing left running', async () => {
    const h = await harness({});
    h.world.spawnEntity({ name: 'pig', kind: 'passive', position: { x: 2.5, y: 0, z: 0.5 } });
    const run = h.assembly.executor.run(plan(follow({ name: 'pig' }, 600_000)));
    let result: PlanResult | undefined;
    void run.result.then((r) => (result = r));
    h.clock.setTimeout(() => run.cancel('the user called it off'), 8_000);
    await h.clock.runUntil(() => result !== undefined, 60_000);
    expect(result!.ok).toBe(false);
    expect(result!.steps[0]!.outcome).toMatchObject({ ok: false, code: 'aborted' });
    expect(h.world.liveActuators()).toBe(0);
  });

  it('fails naming it when the entity it follows is gone', async () => {
    const h = await harness({});
    const cow = h.world.spawnEntity({ name: 'cow', kind: 'passive', position: { x: 2.5, y: 0, z: 0.5 } });
    h.clock.setTimeout(() => h.world.removeEntity(cow), 4_000);
    const result = await h.run(plan(follow({ id: cow }, 30_000)), 120_000);
    expect(result.steps[0]!.outcome).toMatchObject({
      ok: false,
      code: 'precondition_missing',
      detail: match.stringContaining(`the cow (entity ${cow}) is gone`),
    });
  });
});
