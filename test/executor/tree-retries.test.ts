import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import { WorldError } from '../../src/contracts/world.js';
import type { EventOf } from '../../src/executor/events.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { harness, plan } from '../helpers/executor.js';

/*
 * navigate's tree (trees/navigate.mdsl) retries a failed walk itself, with an unstuck move between: the executor never
 * sees a failed attempt. What the tree did still counts in the step's record, its events and the SLA.
 */

const walk = { stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', x: 6, y: 0, z: 0 } } };

/** A SimWorld whose first `failures` walks fail with no_path (the way blocked for a moment), the next ones walk. */
function blockedAtFirst(failures: number) {
  return (clock: ManualClock) => {
    const world = SimWorld.create({ clock });
    const goto = world.goto.bind(world);
    let left = failures;
    world.goto = (goal, options) =>
      left-- > 0 ? Promise.reject(new WorldError('no_path', 'the way was blocked for a moment')) : goto(goal, options);
    return world;
  };
}

describe("a tree's own retries and unstuck moves inside an attempt are counted", () => {
  it('one failed walk the tree walks again after an unstuck move: 1 attempt, 1 retry, 1 repair, in the record, the events and the SLA', async () => {
    const h = await harness(blockedAtFirst(1));
    const result = await h.run(plan(walk));
    expect(result.ok).toBe(true);
    const record = result.steps.find((s) => s.step.stepId === 'walk')!;
    expect(record).toMatchObject({ attempts: 1, retries: 1, repairs: 1 });
    expect(result).toMatchObject({ retries: 1, repairs: 1 });
    const retry = h.events.filter((e): e is EventOf<'step.retry'> => e.type === 'step.retry');
    expect(retry).toMatchObject([
      { attempt: 1, delayMs: 0, code: 'no_path', detail: 'the way was blocked for a moment', inTree: true },
    ]);
    const repair = h.events.filter((e): e is EventOf<'step.repair'> => e.type === 'step.repair');
    expect(repair).toMatchObject([{ strategy: 'unstuck: move inside the tree', code: 'no_path', inTree: true }]);
    expect(h.assembly.executor.metrics().totals).toMatchObject({ retries: 1, retriesThatSucceeded: 1, repairs: 1 });
  });

  it('a walk that never fails counts nothing', async () => {
    const h = await harness(blockedAtFirst(0));
    const result = await h.run(plan(walk));
    expect(result.ok).toBe(true);
    expect(result.steps[0]).toMatchObject({ attempts: 1, retries: 0, repairs: 0 });
    expect(h.events.filter((e) => e.type === 'step.retry' || e.type === 'step.repair')).toEqual([]);
  });
});
