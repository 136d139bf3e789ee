import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyFleet, caughtUp, emptyFleet } from '../../src/monitor/app/fleet.js';
import { nested, shortStepId, type StepRow } from '../../src/monitor/app/steps.js';

/*
 * The monitor's fold of the stream, in Node (no browser needed): which bot a message is about, and a page that
 * connects mid-plan catching up from the journal without showing an event twice or out of order.
 */

const sample = (bot: string, plan: string | null = null) => ({
  bot,
  kind: 'sim',
  connected: true,
  state: 'IDLE',
  position: { x: 0, y: 0, z: 0 },
  health: 20,
  food: 20,
  plan,
});
const started = (bot: string, stepId: string, at: number) => ({
  type: 'step.started',
  bot,
  planId: 'p',
  stepId,
  verb: 'navigate',
  at,
});
const ended = (bot: string, stepId: string, at: number) => ({
  type: 'step.ended',
  bot,
  planId: 'p',
  stepId,
  at,
  durationMs: 1,
  attempts: 1,
  outcome: { ok: true },
});
const strip = ({ bot: _bot, ...event }: Record<string, unknown>) => event;

describe("the monitor's fleet model", () => {
  it("folds a fleet gateway's samples: the holder of a held bot, and nothing made up before its holder's first report", () => {
    const fleet = emptyFleet();
    const lease = { epoch: 1, leaseExpiresAt: 2, reportedAt: null, queued: 0 };
    applyFleet(fleet, {
      type: 'hello',
      fleet: true,
      bots: [
        { ...sample('ann', 'pa'), ...lease, holder: 'w1', held: true, state: 'EXECUTING' },
        {
          bot: 'bob',
          holder: 'w2',
          held: false,
          kind: null,
          connected: false,
          state: null,
          position: null,
          health: null,
          food: null,
          plan: null,
          ...lease,
        },
      ],
    });
    const [ann, bob] = [fleet.bots.get('ann')!, fleet.bots.get('bob')!];
    expect(ann.bot).toEqual({ position: { x: 0, y: 0, z: 0 }, health: 20, food: 20, connected: true, holder: 'w1' });
    expect(ann.agent).toBe('EXECUTING');
    // bob's lease lapsed and nobody reported it under its lease: no holder, no position, no health of 0.
    expect(bob.bot).toEqual({ connected: false });
    expect(bob.agent).toBe('IDLE');
  });

  it("keeps each bot's messages to its own model, and splits a node batch among the bots whose runs it carries", () => {
    const fleet = emptyFleet();
    applyFleet(fleet, { type: 'hello', bots: [sample('a'), sample('b')] });
    applyFleet(fleet, { type: 'plan.accepted', bot: 'b', planId: 'pb', at: 1 });
    applyFleet(fleet, started('b', 's1', 2));
    applyFleet(fleet, {
      type: 'nodes',
      at: 3,
      runs: [
        { bot: 'a', runId: 1, tree: 'dig_block', states: { 'dig_block/x': 'running' }, trips: [] },
        { bot: 'b', runId: 1, tree: 'navigate', states: { 'navigate/y': 'succeeded' }, trips: [] },
      ],
    });
    expect(fleet.order).toEqual(['a', 'b']);
    const [a, b] = [fleet.bots.get('a')!, fleet.bots.get('b')!];
    expect([a.planId, b.planId]).toEqual([undefined, 'pb']);
    expect(b.steps.map((s) => s.stepId)).toEqual(['s1']);
    expect([a.runs.get(1)!.tree, b.runs.get(1)!.tree]).toEqual(['dig_block', 'navigate']);
    expect(b.runs.get(1)!.states).toEqual({ 'navigate/y': 'succeeded' });
  });

  it('notes each recovery rung on its step: retries, repairs, stuck detections, and the escalation to the planner', () => {
    const fleet = emptyFleet();
    applyFleet(fleet, { type: 'hello', bots: [sample('a')] });
    applyFleet(fleet, { type: 'plan.accepted', bot: 'a', planId: 'p', at: 0 });
    applyFleet(fleet, started('a', 'dig', 1));
    applyFleet(fleet, { type: 'step.stuck', bot: 'a', stepId: 'dig', detector: 'progress', code: 'stuck', at: 2 });
    applyFleet(fleet, { type: 'step.retry', bot: 'a', stepId: 'dig', code: 'stuck', at: 3 });
    applyFleet(fleet, { type: 'step.repair', bot: 'a', stepId: 'dig', strategy: 'repath', code: 'no_path', at: 4 });
    applyFleet(fleet, {
      type: 'plan.escalated',
      bot: 'a',
      planId: 'p',
      rung: 3,
      planner: 'htn',
      code: 'no_path',
      failedStepId: 'dig',
      loop: false,
      at: 5,
    });
    const step = fleet.bots.get('a')!.steps[0]!;
    expect([step.retries, step.repairs]).toEqual([1, 1]);
    expect(step.notes).toEqual([
      'stuck: progress (stuck)',
      'retry after stuck',
      'repair repath (no_path)',
      'escalated to htn (rung 3, no_path)',
    ]);
  });

  it('shows a step the idempotency check ended before it started (no step.started), failed or deduplicated', () => {
    const fleet = emptyFleet();
    applyFleet(fleet, { type: 'hello', bots: [sample('a')] });
    applyFleet(fleet, { type: 'plan.accepted', bot: 'a', planId: 'p', at: 0 });
    const holder = { planId: 'p', stepId: 'first', verb: 'navigate', args: {} };
    const notStarted = (type: string, stepId: string, at: number) => ({
      type,
      bot: 'a',
      planId: 'p',
      stepId,
      verb: 'navigate',
      idempotencyKey: 'k',
      holder,
      at,
    });
    applyFleet(fleet, notStarted('step.refused', 'again', 1));
    applyFleet(fleet, { ...ended('a', 'again', 2), outcome: { ok: false, code: 'duplicate_dispatch', detail: 'x' } });
    applyFleet(fleet, notStarted('step.deduplicated', 'same', 3));
    applyFleet(fleet, ended('a', 'same', 4));
    const steps = fleet.bots.get('a')!.steps;
    expect(steps.map((s) => [s.stepId, s.status, s.code])).toEqual([
      ['again', 'failed', 'duplicate_dispatch'],
      ['same', 'ok', undefined],
    ]);
    expect(steps[0]!.notes).toEqual(['not started: key k held by first of p']);
  });

  it('for any point at which the page connects, the caught-up timeline equals the one a page open from the start shows', () => {
    // A plan's events, journaled and streamed as they happen; the page connects after `connect` of them and its
    // read of the journal returns after `read` more (those arrive on the stream meanwhile, and are in both).
    const events = [
      { type: 'plan.accepted', bot: 'a', planId: 'p', at: 0 },
      ...[1, 2, 3, 4].flatMap((n) => [started('a', `s${n}`, n * 10), ended('a', `s${n}`, n * 10 + 5)]),
      { type: 'plan.ended', bot: 'a', planId: 'p', at: 99, result: { ok: true } },
    ];
    const timeline = (fleet: ReturnType<typeof emptyFleet>) =>
      fleet.bots.get('a')!.steps.map((s) => `${s.stepId}:${s.status}`);
    const full = emptyFleet();
    applyFleet(full, { type: 'hello', bots: [sample('a')] });
    for (const event of events) applyFleet(full, event);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: events.length }),
        fc.integer({ min: 0, max: events.length }),
        (connect, more) => {
          const read = Math.min(events.length, connect + more);
          const late = emptyFleet();
          const catchUps = applyFleet(late, { type: 'hello', bots: [sample('a', 'p')] });
          expect(catchUps).toEqual([{ bot: 'a', plan: 'p' }]);
          for (const event of events.slice(connect)) applyFleet(late, event);
          caughtUp(late, 'a', { events: events.slice(0, read).map(strip), nodes: [] });
          expect(timeline(late)).toEqual(timeline(full));
          expect(late.bots.get('a')!.planState).toBe('succeeded');
        },
      ),
    );
  });

  it('a late page draws the last journaled step tree as it stood, and its trail, and the live run of that tree carries those states on', () => {
    const fleet = emptyFleet();
    applyFleet(fleet, { type: 'hello', bots: [sample('a', 'p')] });
    const row = (id: number, stepId: string, changes: [string, string][], x: number) => ({
      id,
      stepId,
      attemptId: 1,
      tree: 'navigate',
      at: id,
      changes,
      eventId: null,
      position: { x, y: 0, z: 0 },
    });
    caughtUp(fleet, 'a', {
      events: [{ type: 'plan.accepted', planId: 'p', at: 0 }, started('a', 'walk', 1)],
      nodes: [
        row(1, 'old', [['navigate/a', 'failed']], 0),
        row(
          2,
          'walk',
          [
            ['navigate/a', 'running'],
            ['navigate/b', 'running'],
          ],
          1,
        ),
        row(3, 'walk', [['navigate/b', 'succeeded']], 2),
      ] as never,
    });
    const model = fleet.bots.get('a')!;
    expect(model.runs.get(model.focus!)!.states).toEqual({ 'navigate/a': 'running', 'navigate/b': 'succeeded' });
    expect(model.trail).toEqual([
      { x: 0, z: 0 },
      { x: 1, z: 0 },
      { x: 2, z: 0 },
    ]);
    applyFleet(fleet, {
      type: 'nodes',
      at: 5,
      runs: [{ bot: 'a', runId: 7, tree: 'navigate', states: { 'navigate/a': 'succeeded' }, trips: [] }],
    });
    expect(model.focus).toBe(7);
    expect(model.runs.get(7)!.states).toEqual({ 'navigate/a': 'succeeded', 'navigate/b': 'succeeded' });
  });

  it("lists a replay's steps with every sub-goal under the step it serves, whatever order the journal added them in", () => {
    const step = (id: string, parent: string | null): StepRow => ({
      step: { step_id: id, verb: 'v', parent_step_id: parent },
      transitions: [],
    });
    const rows = [
      step('a', null),
      step('b', null),
      step('c', null),
      step('b/1', 'b'),
      step('b/2', 'b'),
      step('b/1/x', 'b/1'),
      step('c/1', 'c'),
    ];
    expect(nested(rows).map((r) => r.step.step_id)).toEqual(['a', 'b', 'b/1', 'b/1/x', 'b/2', 'c', 'c/1']);
    // A page of steps whose parent is not on it keeps the orphan as a root rather than dropping it.
    expect(nested([step('b/2', 'b'), step('c', null)]).map((r) => r.step.step_id)).toEqual(['b/2', 'c']);
    // Drawn under its parent, a sub-goal reads without the parent's prefix; an id that does not carry it stays whole.
    expect([shortStepId('craft/subgoal-x', 'craft'), shortStepId('craftx/y', 'craft'), shortStepId('a', null)]).toEqual(
      ['subgoal-x', 'craftx/y', 'a'],
    );
  });
});
