import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { ManualClock } from '../../src/clock/index.js';
import type { Clock } from '../../src/contracts/clock.js';
import type { EventOf, ExecutorEvent, PlanResult } from '../../src/executor/events.js';
import { progressLine } from '../../src/cli/progress.js';
import type { StepInvoker } from '../../src/executor/invoker.js';
import { ProgressThrottle, type ProgressReport } from '../../src/executor/progress-throttle.js';
import { assembleJournaled } from '../../src/journal/journaled-executor.js';
import { progressMessage } from '../../src/mcp/progress.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { openTemp } from '../journal/helpers.js';
import { harness, plan, type Harness } from '../helpers/executor.js';

/** A step whose effects already hold where the bot stands: its attempt is judged ok whatever the invoker did. */
const standStill = {
  stepId: 'stand',
  type: 'navigate',
  args: { target: { kind: 'near', x: 0, y: 0, z: 0, range: 2 } },
};

const sleep = (clock: Clock, ms: number) => new Promise<void>((resolve) => clock.setTimeout(resolve, ms));

/** An invoker that acts once, then reports `done` = 1..n every `everyMs` (0: all at once), then settles ok. */
function reporting(n: number, everyMs: number): (inner: StepInvoker) => StepInvoker {
  return () => ({
    async invoke(request) {
      request.onActuatorStart('count');
      for (let done = 1; done <= n; done++) {
        request.onProgress(done, n, { unit: 'things' });
        if (everyMs > 0) await sleep(request.clock, everyMs);
      }
      if (everyMs === 0) await sleep(request.clock, 100);
      request.onActuatorSettled('count');
      return { ok: true };
    },
  });
}

const progressOf = (h: Pick<Harness, 'events'>, stepId: string) =>
  h.events.filter((e): e is EventOf<'step.progress'> => e.type === 'step.progress' && e.stepId === stepId);
const endOf = (h: Pick<Harness, 'events'>, stepId: string) =>
  h.events.find((e): e is EventOf<'step.ended'> => e.type === 'step.ended' && e.stepId === stepId)!;

describe('ProgressThrottle', () => {
  const report = (done: number): ProgressReport => ({ done, total: 10, unit: 'things' });

  it('sends the first report at once, then at most one per gap, the latest waiting one winning its slot', async () => {
    const clock = new ManualClock();
    const sent: { at: number; done: number }[] = [];
    const throttle = new ProgressThrottle(clock, (r) => sent.push({ at: clock.now(), done: r.done }), 4);
    for (let done = 1; done <= 5; done++) throttle.report(report(done));
    await clock.advance(100);
    throttle.report(report(6));
    await clock.advance(400);
    expect(sent).toEqual([
      { at: 0, done: 1 },
      { at: 250, done: 6 },
    ]);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('does not send a report equal to the last one sent, and flush sends what waits at once', async () => {
    const clock = new ManualClock();
    const sent: number[] = [];
    const throttle = new ProgressThrottle(clock, (r) => sent.push(r.done), 4);
    throttle.report(report(1));
    throttle.report(report(2));
    throttle.report(report(1)); // back to what was sent: nothing new to say
    await clock.advance(1000);
    throttle.report(report(1));
    throttle.report(report(3));
    throttle.report(report(4));
    throttle.flush();
    expect(sent).toEqual([1, 3, 4]);
    expect(clock.pendingTimers()).toBe(0);
  });
});

describe('step.progress through the executor (SimWorld, manual clock)', () => {
  it('a burst of reports inside the minimum gap gives the first at once and the last at the attempt end, before step.ended', async () => {
    const h = await harness({}, { wrapInvoker: reporting(10, 0) });
    const result = await h.run(plan(standStill));
    expect(result.ok).toBe(true);
    const started = h.events.find((e) => e.type === 'attempt.started')!;
    expect(progressOf(h, 'stand').map((e) => ({ after: e.at - started.at, done: e.done, total: e.total }))).toEqual([
      { after: 0, done: 1, total: 10 },
      { after: 100, done: 10, total: 10 },
    ]);
    const types = h.events.map((e) => e.type);
    expect(types.lastIndexOf('step.progress')).toBeLessThan(types.indexOf('step.ended'));
  });

  it('reports spread over a second go out at most four a second, in order, and the last state is never lost', async () => {
    const h = await harness({}, { wrapInvoker: reporting(20, 50) });
    await h.run(plan(standStill));
    const events = progressOf(h, 'stand');
    // 20 reports in 1 s: the first at once, then one per 250 ms slot.
    expect(events.length).toBeLessThanOrEqual(1 + 1000 / 250);
    expect(events.at(-1)).toMatchObject({ done: 20, total: 20, unit: 'things', verb: 'navigate', planId: 'test-plan' });
    for (let i = 1; i < events.length; i++) {
      expect(events[i]!.done).toBeGreaterThan(events[i - 1]!.done);
      expect(events[i]!.at - events[i - 1]!.at).toBeGreaterThanOrEqual(250);
    }
    expect(events.at(-1)!.at).toBeLessThanOrEqual(endOf(h, 'stand').at);
  });

  it('a walk reports the distance left, closing in order, ending at 0 blocks left before its step ends', async () => {
    const h = await harness();
    const walk = { stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', x: 12, y: 0, z: 0 } } };
    expect((await h.run(plan(walk))).ok).toBe(true);
    const events = progressOf(h, 'walk');
    expect(events[0]).toMatchObject({ done: 0, total: 12, unit: 'blocks of the way', detail: '12 blocks left' });
    expect(events.at(-1)).toMatchObject({ done: 12, total: 12, detail: '0 blocks left' });
    // A 12-block walk takes about 3 s: a report for each slot on the way, not one per tick.
    expect(events.length).toBeGreaterThan(3);
    for (let i = 1; i < events.length; i++) expect(events[i]!.done).toBeGreaterThan(events[i - 1]!.done);
    expect(h.events.indexOf(events.at(-1)!)).toBeLessThan(h.events.indexOf(endOf(h, 'walk')));
  });

  it('a walk around a long wall, farther from its goal for more than the stall limit, is not judged stalled', async () => {
    // Straight-line distance is what the walk shows, not a measure of progress along a path: here the way round
    // leads 30 blocks away from a goal 8 blocks off, and back (about 15 s of walking with no new best distance).
    const wall = [];
    for (let z = -30; z <= 30; z++) for (const y of [0, 1, 2]) wall.push({ position: { x: 4, y, z }, name: 'bedrock' });
    const h = await harness({ blocks: wall });
    const walk = { stepId: 'around', type: 'navigate', args: { target: { kind: 'block', x: 8, y: 0, z: 0 } } };
    const result = await h.run(plan(walk));
    expect(result.ok, JSON.stringify(endOf(h, 'around'))).toBe(true);
    expect(h.events.filter((e) => e.type === 'step.stuck' || e.type === 'step.repair')).toEqual([]);
    expect(endOf(h, 'around').attempts).toBe(1);
    expect(progressOf(h, 'around').at(-1)).toMatchObject({ done: 8, total: 8, detail: '0 blocks left' });
  });

  it('collect_block reports the blocks gathered of the count asked, in what it gathers', async () => {
    const trunk = [0, 1, 2, 3].map((y) => ({ position: { x: 5, y, z: 0 }, name: 'oak_log' }));
    const h = await harness({ blocks: trunk });
    const result = await h.run(plan({ stepId: 'gather', type: 'collect_block', args: { block: 'oak_log', count: 4 } }));
    expect(result.ok).toBe(true);
    const events = progressOf(h, 'gather');
    expect(events.every((e) => e.unit === 'oak_log' && e.total === 4)).toBe(true);
    expect(events.at(-1)).toMatchObject({ done: 4, total: 4 });
    for (let i = 1; i < events.length; i++) expect(events[i]!.done).toBeGreaterThan(events[i - 1]!.done);
  });

  it('the journal records every step.progress event the executor emitted, in order', async () => {
    const clock = new ManualClock();
    const { journal } = openTemp();
    const world = SimWorld.create({ clock });
    const assembly = await assembleJournaled({
      registry: createDefaultRegistry(),
      world,
      clock,
      journal,
      kind: 'test',
    });
    try {
      const events: ExecutorEvent[] = [];
      assembly.executor.events.on('event', (e) => events.push(e));
      const walk = { stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', x: 8, y: 0, z: 0 } } };
      let result: PlanResult | undefined;
      void assembly.run(plan(walk)).then((run) => run.result.then((r) => (result = r)));
      await clock.runUntil(() => result !== undefined, 60_000);
      await assembly.recorder.flush();
      expect(result?.ok).toBe(true);
      const emitted = progressOf({ events }, 'walk');
      expect(emitted.length).toBeGreaterThan(1);
      const rows = (await journal.eventHistory('test-plan', { after: 0, limit: 1_000 }))!.rows;
      expect(rows.filter((r) => r.type === 'step.progress').map((r) => r.event)).toEqual(emitted);
    } finally {
      await assembly.close();
    }
  });
});

describe('step.progress as people and clients see it', () => {
  const event = (done: number, detail?: string): ExecutorEvent => ({
    type: 'step.progress',
    at: 0,
    planId: 'p',
    stepId: 'gather',
    verb: 'collect_block',
    done,
    total: 4,
    unit: 'oak_log',
    ...(detail !== undefined ? { detail } : {}),
  });

  it("the CLI prints a line only for the report that completes the count; MCP says each in a few words, both with the capability's own detail when it gave one", () => {
    expect(progressLine(event(2))).toBeNull();
    expect(progressLine(event(4))).toBe('    gather (collect_block) 4/4 oak_log');
    expect(progressLine(event(4, 'all 4 logs in the pack'))).toBe('    gather (collect_block) all 4 logs in the pack');
    expect(progressMessage(event(2))).toBe('gather (collect_block): 2/4 oak_log');
    expect(progressMessage(event(2, '2 logs to go'))).toBe('gather (collect_block): 2 logs to go');
  });
});
