import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { ManualClock } from '../../src/clock/index.js';
import { assembleJournaled } from '../../src/journal/journaled-executor.js';
import { SqliteJournal } from '../../src/journal/sqlite/sqlite-journal.js';
import { resumePoint } from '../../src/journal/resume.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { tempJournalPath } from '../journal/helpers.js';
import type { ExecutorEvent, PlanResult } from '../../src/executor/events.js';
import type { ExecutionRun } from '../../src/executor/executor.js';
import { harness, plan, type Harness } from '../helpers/executor.js';

const walk = (id: string, x: number) => ({
  stepId: id,
  type: 'navigate',
  args: { target: { kind: 'near', x, y: 0, z: 0, range: 1 } },
});

/** Starts the plan on virtual time; `ended()` is the result once there. */
function start(h: Harness, steps: Parameters<typeof plan>): { run: ExecutionRun; ended: () => PlanResult | undefined } {
  let result: PlanResult | undefined;
  const run = h.assembly.executor.run(plan(...steps));
  void run.result.then((r) => (result = r));
  return { run, ended: () => result };
}

const kinds = (events: ExecutorEvent[]) =>
  events
    .filter(
      (e) =>
        e.type.startsWith('plan.') ||
        e.type === 'step.started' ||
        e.type === 'step.ended' ||
        e.type === 'step.preempted' ||
        e.type === 'step.resumed',
    )
    .map((e) => ('stepId' in e ? `${e.type} ${e.stepId}` : e.type));

describe('control of a running plan', () => {
  it('pause stops the walking bot where it is until resume; the step then resumes and ends verified, its deadline moved by the pause', async () => {
    const h = await harness();
    const { run, ended } = start(h, [walk('far', 30), walk('back', 2)]);
    await h.clock.advance(1_500);
    expect(run.pause('operator looks around')).toBe(true);
    expect(run.pause()).toBe(false);
    await h.clock.advance(500);
    expect(h.assembly.executor.state()).toBe('PAUSED');
    const heldAt = { ...h.world.position() };
    await h.clock.advance(60_000); // far past the step's deadline and every watchdog
    expect(h.world.position()).toEqual(heldAt);
    expect(ended()).toBeUndefined();
    expect(run.resume()).toBe(true);
    await h.clock.runUntil(() => ended() !== undefined, 120_000);
    expect(ended()).toMatchObject({ ok: true });
    expect(kinds(h.events)).toEqual([
      'plan.accepted',
      'step.started far',
      'step.preempted far',
      'plan.paused',
      'plan.resumed',
      'step.resumed far',
      'step.ended far',
      'step.started back',
      'step.ended back',
      'plan.ended',
    ]);
    expect(h.events.find((e) => e.type === 'plan.paused')).toMatchObject({ reason: 'operator looks around' });
  });

  it('a pause asked during an atomic step waits for its action to end; the next step starts only after resume', async () => {
    const h = await harness({ inventory: { bread: 1 }, food: 10 });
    const { run, ended } = start(h, [
      { stepId: 'eat', type: 'consume_food', args: { item: 'bread' } },
      walk('after', 4),
    ]);
    await h.clock.advance(300);
    run.pause();
    await h.clock.advance(10_000);
    // The meal is not cut: it is eaten, and the pause holds the plan before the step is judged and the next one starts.
    expect(kinds(h.events)).toEqual(['plan.accepted', 'step.started eat', 'step.preempted eat', 'plan.paused']);
    expect(h.world.food()).toBeGreaterThan(10);
    expect(h.world.inventory().bread ?? 0).toBe(0);
    run.resume();
    await h.clock.runUntil(() => ended() !== undefined, 60_000);
    expect(ended()).toMatchObject({ ok: true });
    expect(kinds(h.events).slice(4)).toEqual([
      'plan.resumed',
      'step.ended eat',
      'step.started after',
      'step.ended after',
      'plan.ended',
    ]);
  });

  it('cancel ends the running step aborted and starts nothing after it, paused or not', async () => {
    for (const pausedFirst of [false, true]) {
      const h = await harness();
      const { run, ended } = start(h, [walk('far', 30), walk('never', 2)]);
      await h.clock.advance(1_000);
      if (pausedFirst) {
        run.pause();
        await h.clock.advance(1_000);
      }
      expect(run.cancel('operator stop')).toBe(true);
      await h.clock.runUntil(() => ended() !== undefined, 30_000);
      expect(ended()).toMatchObject({ ok: false, code: 'aborted' });
      expect(h.events.some((e) => e.type === 'step.started' && e.stepId === 'never')).toBe(false);
      expect(h.events.find((e) => e.type === 'plan.cancelled')).toMatchObject({ reason: 'operator stop' });
      expect(run.cancel()).toBe(false);
    }
  });

  it('replaceRemaining swaps the steps not yet started after the running one ends; a bad replacement is refused and changes nothing', async () => {
    const h = await harness();
    const { run, ended } = start(h, [walk('first', 6), walk('old', 2)]);
    await h.clock.advance(500);
    const unknown = run.replaceRemaining([{ stepId: 'x', type: 'teleport', args: {} }]);
    expect(unknown).toMatchObject({ ok: false, issues: [{ code: 'unknown_verb' }] });
    const reused = run.replaceRemaining([walk('first', 3)]);
    expect(reused.ok).toBe(false);
    expect(run.replaceRemaining([walk('new', 10)])).toEqual({ ok: true, steps: 1 });
    await h.clock.runUntil(() => ended() !== undefined, 120_000);
    expect(ended()!.steps.map((s) => s.step.stepId)).toEqual(['first', 'new']);
    expect(ended()).toMatchObject({ ok: true });
    expect(h.events.find((e) => e.type === 'plan.replaced')).toMatchObject({
      afterStepId: 'first',
      steps: [{ stepId: 'new' }],
    });
    expect(run.replaceRemaining([walk('late', 1)])).toMatchObject({ ok: false });
  });
});

describe('control of a running plan, journaled', () => {
  it('a replacement is journaled as a revision of the plan, adopted when its first step starts, so a resume follows it', async () => {
    const journal = SqliteJournal.open(tempJournalPath());
    const clock = new ManualClock();
    const world = SimWorld.create({ clock });
    const assembly = await assembleJournaled({
      registry: createDefaultRegistry(),
      world,
      clock,
      journal,
      kind: 'test',
    });
    // The process "dies" once the replacement's first step is under way: the journal as it stands then.
    let stop = false;
    assembly.executor.events.on('event', (event) => {
      if (event.type === 'step.started' && event.stepId === 'new-1') stop = true;
    });
    const run = await assembly.run(plan(walk('first', 6), walk('old', 2)));
    await clock.advance(500);
    expect(run.replaceRemaining([walk('new-1', 10), walk('new-2', 12)]).ok).toBe(true);
    await clock.runUntil(() => stop, 120_000);
    // What a health check makes of the step the "dead" process left in progress.
    await journal.transition('test-plan', 'new-1', 'pending', 'interrupted');
    await journal.setPlanStatus('test-plan', 'failed');
    const point = await resumePoint(journal, 'test-plan');
    expect(point.done).toEqual(['first']);
    expect(point.plan.steps.map((s) => s.stepId)).toEqual(['new-1', 'new-2']);
    expect(point.escalation).toEqual({ planner: 'operator', rung: 0, failedStepId: 'first' });
    run.cancel();
    await clock.advance(5_000);
    await assembly.close();
    await journal.close();
  });
});
