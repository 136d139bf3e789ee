import { BehaviourTree } from 'mistreevous';
import { afterEach, expect, test, vi } from 'vitest';
import { FakeActuator, harness, unusedWorld } from './harness.js';

/** Counts steps of the underlying mistreevous trees (calls through). */
function countTreeSteps(): { count(): number } {
  const spy = vi.spyOn(BehaviourTree.prototype, 'step');
  return { count: () => spy.mock.calls.length };
}

afterEach(() => {
  vi.restoreAllMocks();
});

test('the next leaf starts when the previous settles, not at the next tick', async () => {
  let actuator!: FakeActuator;
  const stamps: number[] = [];
  const h = harness(
    { t: 'root { sequence { action [move] action [move] action [move] } }' },
    (bindings, clock) => {
      actuator = new FakeActuator(clock);
      bindings.registerAction('move', (ctx) => actuator.command(ctx, 30));
    },
    { tickHz: 1, hooks: { actuate: (event) => stamps.push(event.at) } },
  );
  const outcome = h.runner.run('t', { args: {}, world: unusedWorld });
  await h.clock.advance(90);
  expect(await outcome).toEqual({ ok: true });
  expect(stamps).toEqual([0, 30, 60]);
});

test('the fixed tick drives guards: a guard that turns false is noticed at the next tick', async () => {
  let actuator!: FakeActuator;
  let safe = true;
  const h = harness(
    { t: 'root { sequence while(safe) { action [move] } }' },
    (bindings, clock) => {
      actuator = new FakeActuator(clock);
      bindings.registerCondition('safe', () => safe);
      bindings.registerAction('move', (ctx) => actuator.command(ctx, 'hang'));
    },
    { tickHz: 20 },
  );
  const ended: number[] = [];
  const outcome = h.runner.run(
    't',
    { args: {}, world: unusedWorld },
    { hooks: { runEnd: (event) => ended.push(event.at) } },
  );
  await h.clock.advance(120);
  safe = false;
  await h.clock.advance(100);
  expect(await outcome).toMatchObject({ ok: false });
  expect(ended).toEqual([150]);
  expect(actuator.stopped).toBe(1);
});

test('the tick timer stops when no run is active', async () => {
  const h = harness({ t: 'root { action [instant] }' }, (bindings) => {
    bindings.registerAction('instant', () => true);
  });
  expect(await h.runner.run('t', { args: {}, world: unusedWorld })).toEqual({ ok: true });
  expect(h.clock.pendingTimers()).toBe(0);
});

test.each([
  ['failing', 'root { retry { condition [never] } }'],
  ['instantly settling', 'root { repeat { action [instant] } }'],
])('a loop of %s leaves falls back to the tick instead of spinning, so watchdogs still fire', async (_, tree) => {
  let calls = 0;
  const h = harness({ t: tree }, (bindings) => {
    bindings.registerCondition('never', () => (calls++, false));
    bindings.registerAction('instant', () => Promise.resolve(void calls++));
  });
  const outcome = h.runner.run('t', { args: {}, world: unusedWorld });
  await h.clock.advance(2000);
  expect(await outcome).toMatchObject({ ok: false, code: 'ttfa_exceeded' });
  // At most 64 prompt steps per 50 ms tick.
  expect(calls).toBeLessThanOrEqual(41 * 65);
});

test.each([
  ['while(safe)', true],
  ['until(danger)', false],
])(
  'a waiting run with a condition guard %s has the guard evaluated once per tick, and is stepped on the tick the guard turns',
  async (guard, holding) => {
    let actuator!: FakeActuator;
    let guardCalls = 0;
    let value = holding;
    const h = harness(
      { t: `root { sequence ${guard} { action [move] } }` },
      (bindings, clock) => {
        actuator = new FakeActuator(clock);
        bindings.registerCondition(guard.includes('safe') ? 'safe' : 'danger', () => (guardCalls++, value));
        bindings.registerAction('move', (ctx) => actuator.command(ctx, 'hang'));
      },
      { tickHz: 20 },
    );
    const steps = countTreeSteps();
    let settled = false;
    const outcome = h.runner.run('t', { args: {}, world: unusedWorld }).finally(() => (settled = true));
    // Ticks at 50, 100, …: the first steps once more after the dispatch step; from then on the run waits.
    await h.clock.advance(50);
    const [stepsBefore, guardBefore] = [steps.count(), guardCalls];
    await h.clock.advance(500);
    expect(guardCalls - guardBefore).toBe(10);
    expect(steps.count()).toBe(stepsBefore);
    value = !holding;
    await h.clock.advance(49);
    expect(settled).toBe(false);
    await h.clock.advance(1);
    expect(steps.count()).toBe(stepsBefore + 1);
    expect(await outcome).toMatchObject({ ok: false });
    expect(actuator.live).toBe(0);
  },
);

test('a run waiting on async leaves with only watchdog and retryable guards is not stepped by the tick, but at once when a leaf settles', async () => {
  let actuator!: FakeActuator;
  const stamps: number[] = [];
  const h = harness(
    {
      t: 'root { retry [3] while(retryable) { sequence while(watchdog, "maxStateDuration", 60000) { action [move] action [move] } } }',
    },
    (bindings, clock) => {
      actuator = new FakeActuator(clock);
      bindings.registerAction('move', (ctx) => actuator.command(ctx, 1010));
    },
    { tickHz: 20, hooks: { actuate: (event) => stamps.push(event.at) } },
  );
  const steps = countTreeSteps();
  const outcome = h.runner.run('t', { args: {}, world: unusedWorld });
  // The first tick after a step that changed states still steps once; from then on the run waits.
  await h.clock.advance(60);
  const waiting = steps.count();
  await h.clock.advance(900);
  expect(steps.count()).toBe(waiting);
  await h.clock.advance(50);
  expect(stamps).toEqual([0, 1010]);
  expect(steps.count()).toBe(waiting + 1);
  await h.clock.advance(1010);
  expect(await outcome).toEqual({ ok: true });
  expect(actuator.finished).toBe(2);
});

test('a run the tick does not step still trips its watchdogs at their limit', async () => {
  let actuator!: FakeActuator;
  const h = harness(
    { t: 'root { sequence while(watchdog, "maxStateDuration", 1010) { action [move] } }' },
    (bindings, clock) => {
      actuator = new FakeActuator(clock);
      bindings.registerAction('move', (ctx) => actuator.command(ctx, 'hang'));
    },
    { tickHz: 20 },
  );
  let settled = false;
  const outcome = h.runner.run('t', { args: {}, world: unusedWorld }).finally(() => (settled = true));
  await h.clock.advance(1009);
  expect(settled).toBe(false);
  await h.clock.advance(1);
  expect(await outcome).toMatchObject({
    ok: false,
    code: 'state_timeout',
    nodePath: 't/sequence',
    limitMs: 1010,
    measuredMs: 1010,
  });
  expect(actuator.stopped).toBe(1);
});

test('a condition guard that throws is left to the step, which records it: under while(retryable) the run fails with its code', async () => {
  let actuator!: FakeActuator;
  let throwing = false;
  const h = harness(
    { t: 'root { retry [3] while(retryable) { sequence until(danger) { action [move] } } }' },
    (bindings, clock) => {
      actuator = new FakeActuator(clock);
      bindings.registerCondition('danger', () => {
        if (throwing) throw Object.assign(new Error('sensor offline'), { code: 'guard_failed' });
        return false;
      });
      bindings.registerAction('move', (ctx) => actuator.command(ctx, 'hang'));
    },
    { tickHz: 20 },
  );
  let settled = false;
  const outcome = h.runner.run('t', { args: {}, world: unusedWorld }).finally(() => (settled = true));
  await h.clock.advance(200);
  throwing = true;
  await h.clock.advance(50);
  expect(settled).toBe(true);
  expect(await outcome).toMatchObject({ ok: false, code: 'guard_failed' });
  expect(actuator.live).toBe(0);
});

test("the tick's guard check has no side effect: a guard that throws once and then holds does not take the blame for a later failure", async () => {
  let actuator!: FakeActuator;
  let throwsLeft = 0;
  const h = harness(
    { t: 'root { sequence { sequence while(flaky) { action [work] } action [refuse] } }' },
    (bindings, clock) => {
      actuator = new FakeActuator(clock);
      bindings.registerCondition('flaky', () => {
        if (throwsLeft > 0 && throwsLeft--) throw new Error('flaky once');
        return true;
      });
      bindings.registerAction('work', (ctx) => actuator.command(ctx, 1000));
      bindings.registerAction('refuse', () => false);
    },
    { tickHz: 20 },
  );
  const outcome = h.runner.run('t', { args: {}, world: unusedWorld });
  await h.clock.advance(200);
  throwsLeft = 1;
  await h.clock.advance(800);
  const result = await outcome;
  expect(result).toMatchObject({ ok: false, code: 'runner_error' });
  expect(result.ok ? '' : result.detail).toMatch(/action\(refuse\) returned false/);
  expect(actuator.finished).toBe(1);
});
