import { expect, test } from 'vitest';
import { FakeActuator, harness, unusedWorld } from './harness.js';

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
  const outcome = h.runner.run('t', { args: {}, world: unusedWorld }, { hooks: { runEnd: (event) => ended.push(event.at) } });
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
    bindings.registerAction('instant', async () => void calls++);
  });
  const outcome = h.runner.run('t', { args: {}, world: unusedWorld });
  await h.clock.advance(2000);
  expect(await outcome).toMatchObject({ ok: false, code: 'ttfa_exceeded' });
  // At most 64 prompt steps per 50 ms tick.
  expect(calls).toBeLessThanOrEqual(41 * 65);
});
