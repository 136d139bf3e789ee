import { describe, expect, it } from 'vitest';
import type { EventOf, PlanResult } from '../../src/executor/events.js';
import { harness, plan } from '../helpers/executor.js';
import { match } from '../helpers/matchers.js';

const walkFar = {
  stepId: 'walk-far',
  type: 'navigate',
  args: { target: { kind: 'near', x: 20, y: 0, z: 0, range: 1 } },
};

const ended = (events: readonly { type: string }[], stepId: string) =>
  events.find(
    (e): e is EventOf<'step.ended'> => e.type === 'step.ended' && (e as EventOf<'step.ended'>).stepId === stepId,
  );

describe('the safety fast path gets the bot out of a hazard', () => {
  it('a bot dropped into lava mid-walk is preempted by a hazard signal naming the lava, walks to the nearest safe cell, then the walk resumes', async () => {
    // A 3x3 lava pool, one block deep, to the side of the walk.
    const h = await harness({ ground: { radius: 40 } });
    h.world.fill({ x: -1, y: -1, z: 4 }, { x: 1, y: -1, z: 6 }, 'lava');
    let result: PlanResult | undefined;
    void h.assembly.executor.run(plan(walkFar)).result.then((r) => (result = r));
    await h.clock.advance(1_000);
    h.world.teleport({ x: 0, y: -1, z: 5 });
    await h.clock.runUntil(() => result !== undefined, 120_000);

    expect(h.events.find((e) => e.type === 'safety.emergency')).toMatchObject({
      signal: 'hazard',
      detail: 'in lava at 0,-1,5',
      response: 'navigate',
    });
    const escape = h.events.find(
      (e): e is EventOf<'step.started'> =>
        e.type === 'step.started' && e.verb === 'navigate' && e.parentStepId === 'walk-far',
    );
    // The closest cell to stand unhurt: on the bank, one block up, beside the pool (ties go to the lowest x).
    expect(escape?.args).toEqual({ target: { kind: 'block', x: -2, y: 0, z: 5 } });
    expect(ended(h.events, escape!.stepId)?.outcome).toEqual({ ok: true });
    expect(result!.ok).toBe(true);
    // The walk, and the safety step that ran for it, listed under it.
    expect(result!.steps.filter((s) => s.parentStepId === undefined)).toMatchObject([
      { step: { stepId: 'walk-far' }, outcome: { ok: true } },
    ]);
    expect(result!.steps.some((s) => s.parentStepId === 'walk-far' && s.step.stepId === escape!.stepId)).toBe(true);
    // Two burns at most: one on entry, one more before the way out (two cells) was walked.
    expect(h.deaths).toEqual([]);
    expect(h.world.health()).toBeGreaterThanOrEqual(12);
  });

  it('when the way out fails, the failure names the hazard', async () => {
    // A lava pit walled in by obsidian three blocks high: no way out on foot.
    const h = await harness({ ground: { radius: 40 }, unbreakable: ['obsidian'] });
    h.world
      .fill({ x: -1, y: -1, z: 4 }, { x: 1, y: 2, z: 6 }, 'obsidian')
      .fill({ x: 0, y: -1, z: 5 }, { x: 0, y: 1, z: 5 }, 'air')
      .setBlock({ x: 0, y: -1, z: 5 }, 'lava');
    let result: PlanResult | undefined;
    void h.assembly.executor.run(plan(walkFar)).result.then((r) => (result = r));
    await h.clock.advance(1_000);
    h.world.teleport({ x: 0, y: -1, z: 5 });
    await h.clock.runUntil(() => result !== undefined, 240_000);

    expect(h.events.find((e) => e.type === 'safety.emergency')).toMatchObject({
      signal: 'hazard',
      detail: 'in lava at 0,-1,5',
    });
    const escape = h.events.find(
      (e): e is EventOf<'step.started'> => e.type === 'step.started' && e.parentStepId === 'walk-far',
    );
    expect(ended(h.events, escape!.stepId)?.outcome).toMatchObject({
      ok: false,
      code: 'hazard',
      detail: match.stringContaining('the bot stands in lava at 0,-1,5'),
    });
    expect(h.events.find((e) => e.type === 'safety.emergency' && e.response === 'failed')).toMatchObject({
      signal: 'hazard',
      detail: match.stringMatching(/^still in lava at 0,-1,5: navigate failed with hazard/),
    });
    // The walk itself cannot leave the lava either, and says so.
    expect(result).toMatchObject({ ok: false });
    expect(ended(h.events, 'walk-far')?.outcome).toMatchObject({
      ok: false,
      code: 'hazard',
      detail: match.stringContaining('in lava at 0,-1,5'),
    });
  });
});
