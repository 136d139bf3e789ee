import { describe, expect, test } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import type { Clock } from '../../src/contracts/clock.js';
import type { RunContext } from '../../src/registry/capability-spec.js';
import {
  createBindingRegistry,
  createTreeCatalog,
  createTreeRunner,
  type WatchdogTripEvent,
} from '../../src/runtime/index.js';
import { FakeActuator, flush, harness, unusedWorld } from './harness.js';

/** An action that thinks for `thinkMs` of clock time before commanding its actuator. */
function thinkThenAct(actuator: FakeActuator, thinkMs: number, actMs: number | 'hang') {
  return async (ctx: RunContext) => {
    await new Promise<void>((resolve) => ctx.clock.setTimeout(resolve, thinkMs));
    if (ctx.signal.aborted) return false;
    await actuator.command(ctx, actMs);
  };
}

describe('ttfa', () => {
  test('a declared ttfa trips at its limit, not before, and aborts the subtree', async () => {
    let actuator!: FakeActuator;
    const trips: WatchdogTripEvent[] = [];
    const h = harness(
      { t: 'root { sequence while(watchdog, "ttfa", 1000) { action [idle] } }' },
      (bindings, clock) => {
        actuator = new FakeActuator(clock);
        bindings.registerAction('idle', thinkThenAct(actuator, 5000, 100));
      },
      { hooks: { watchdogTrip: (event) => trips.push(event) } },
    );
    let settled = false;
    const outcome = h.runner.run('t', { args: {}, world: unusedWorld }).finally(() => (settled = true));
    await h.clock.advance(999);
    expect(settled).toBe(false);
    await h.clock.advance(1);
    expect(await outcome).toEqual({
      ok: false,
      code: 'ttfa_exceeded',
      detail: 't/sequence: ttfa watchdog tripped after 1000 ms (limit 1000 ms)',
      nodePath: 't/sequence',
      limitMs: 1000,
      measuredMs: 1000,
    });
    expect(trips).toHaveLength(1);
    expect(actuator.started).toBe(0);
  });

  test('the first actuator command disarms ttfa for good', async () => {
    let actuator!: FakeActuator;
    const h = harness(
      { t: 'root { sequence while(watchdog, "ttfa", 1000) { action [act] action [idle] } }' },
      (bindings, clock) => {
        actuator = new FakeActuator(clock);
        bindings.registerAction('act', thinkThenAct(actuator, 900, 50));
        bindings.registerAction('idle', (ctx) => new Promise<void>((resolve) => ctx.clock.setTimeout(resolve, 3000)));
      },
    );
    const outcome = h.runner.run('t', { args: {}, world: unusedWorld }, { watchdogDefaults: { noActuatorMs: 60_000 } });
    await h.clock.advance(5000);
    expect(await outcome).toEqual({ ok: true });
  });

  test('ttfa restarts when its node starts again (inside a retry)', async () => {
    let actuator!: FakeActuator;
    let attempt = 0;
    const h = harness(
      { t: 'root { retry [3] { sequence while(watchdog, "ttfa", 1000) { action [act] } } }' },
      (bindings, clock) => {
        actuator = new FakeActuator(clock);
        // Attempt 1 never acts (trips), attempt 2 acts after 800 ms of its own start.
        bindings.registerAction('act', (ctx) =>
          ++attempt === 1 ? new Promise(() => undefined) : thinkThenAct(actuator, 800, 50)(ctx),
        );
      },
    );
    const outcome = h.runner.run('t', { args: {}, world: unusedWorld });
    await h.clock.advance(1000 + 850);
    expect(await outcome).toEqual({ ok: true });
    expect(attempt).toBe(2);
  });

  test('the step-level default (2000 ms) applies when the tree declares no ttfa, and is configurable', async () => {
    const h = harness({ t: 'root { action [idle] }' }, (bindings) => {
      bindings.registerAction('idle', () => new Promise(() => undefined));
    });
    const outcome = h.runner.run('t', { args: {}, world: unusedWorld });
    await h.clock.advance(1999);
    expect(h.runner.activeRuns()).toBe(1);
    await h.clock.advance(1);
    expect(await outcome).toMatchObject({
      ok: false,
      code: 'ttfa_exceeded',
      nodePath: 't',
      limitMs: 2000,
      measuredMs: 2000,
    });
    const configured = h.runner.run('t', { args: {}, world: unusedWorld }, { watchdogDefaults: { ttfaMs: 300 } });
    await h.clock.advance(300);
    expect(await configured).toMatchObject({ code: 'ttfa_exceeded', limitMs: 300 });
  });
});

describe('trip details', () => {
  test('print the measured time in whole ms, as a wall clock reads it; measuredMs stays exact', async () => {
    // Virtual time that moves on a little at every read, as a wall clock does between two reads.
    const manual = new ManualClock();
    let reads = 0;
    const clock: Clock = {
      now: () => manual.now() + 0.1111 * reads++,
      setTimeout: (callback, delayMs) => manual.setTimeout(callback, delayMs),
      clearTimeout: (handle) => manual.clearTimeout(handle),
    };
    const bindings = createBindingRegistry().registerAction('idle', () => new Promise<void>(() => undefined));
    const catalog = createTreeCatalog(
      [{ file: 't.mdsl', text: 'root { sequence while(watchdog, "ttfa", 1000) { action [idle] } }' }],
      bindings,
    );
    const outcome = createTreeRunner({ catalog, bindings, clock }).run('t', { args: {}, world: unusedWorld });
    await manual.advance(1100);
    const failure = await outcome;
    expect(failure).toMatchObject({ ok: false, code: 'ttfa_exceeded', limitMs: 1000 });
    const measuredMs = (failure as { measuredMs: number }).measuredMs;
    expect(Number.isInteger(measuredMs)).toBe(false);
    expect((failure as { detail: string }).detail).toBe(
      `t/sequence: ttfa watchdog tripped after ${Math.round(measuredMs)} ms (limit 1000 ms)`,
    );
  });
});

describe('noActuator', () => {
  test('trips as stuck.loop after the limit with no command, resets at each command, pauses while one is in flight', async () => {
    let actuator!: FakeActuator;
    let bursts = 0;
    const h = harness(
      { t: 'root { repeat { sequence while(watchdog, "noActuator", 1000) { action [burst] } } }' },
      (bindings, clock) => {
        actuator = new FakeActuator(clock);
        // Commands of 2000 ms (longer than the limit: in flight counts as activity), 900 ms apart, 3 times; then
        // silence.
        bindings.registerAction('burst', async (ctx) => {
          if (++bursts > 3) return new Promise<void>(() => undefined);
          await actuator.command(ctx, 2000);
          await new Promise<void>((resolve) => ctx.clock.setTimeout(resolve, 900));
        });
      },
    );
    const trips: number[] = [];
    const outcome = h.runner.run(
      't',
      { args: {}, world: unusedWorld },
      { hooks: { watchdogTrip: (e) => trips.push(e.at) } },
    );
    await h.clock.advance(3 * 2900 + 999);
    expect(trips).toEqual([]);
    await h.clock.advance(1);
    expect(trips).toEqual([3 * 2900 + 1000]);
    await flush();
    h.runner.tick();
    await h.runner.shutdown();
    await outcome;
  });

  test('the trip aborts the repeat body and a selector can repair', async () => {
    let actuator!: FakeActuator;
    const h = harness(
      { t: 'root { selector { sequence while(watchdog, "noActuator", 500) { action [spin] } action [repair] } }' },
      (bindings, clock) => {
        actuator = new FakeActuator(clock);
        bindings.registerAction('spin', async (ctx) => {
          await actuator.command(ctx, 100);
          await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
          return false;
        });
        bindings.registerAction('repair', (ctx) => actuator.command(ctx, 100));
      },
    );
    const outcome = h.runner.run('t', { args: {}, world: unusedWorld });
    await h.clock.advance(600);
    await h.clock.advance(100);
    expect(await outcome).toEqual({ ok: true });
    expect(actuator.started).toBe(2);
  });
});

describe('maxStateDuration', () => {
  test('trips as state_timeout when nothing below changes state, and each change below resets it', async () => {
    let actuator!: FakeActuator;
    const h = harness(
      {
        t: 'root { sequence while(watchdog, "maxStateDuration", 1000) { action [step] action [step] action [hang] } }',
      },
      (bindings, clock) => {
        actuator = new FakeActuator(clock);
        bindings.registerAction('step', (ctx) => actuator.command(ctx, 800));
        bindings.registerAction('hang', (ctx) => actuator.command(ctx, 'hang'));
      },
    );
    const outcome = h.runner.run('t', { args: {}, world: unusedWorld });
    await h.clock.advance(1600 + 999);
    expect(h.runner.activeRuns()).toBe(1);
    await h.clock.advance(1);
    expect(await outcome).toMatchObject({
      ok: false,
      code: 'state_timeout',
      nodePath: 't/sequence',
      limitMs: 1000,
      measuredMs: 1000,
    });
    expect(actuator.stopped).toBe(1);
    expect(actuator.signals.at(-1)!.reason).toMatchObject({ code: 'state_timeout' });
  });

  test("defaults to twice the capability's expectedDurationMs", async () => {
    let actuator!: FakeActuator;
    const h = harness({ t: 'root { action [hang] }' }, (bindings, clock) => {
      actuator = new FakeActuator(clock);
      bindings.registerAction('hang', (ctx) => actuator.command(ctx, 'hang'));
    });
    const outcome = h.runner.run('t', { args: {}, world: unusedWorld }, { expectedDurationMs: 4000 });
    await h.clock.advance(7999);
    expect(h.runner.activeRuns()).toBe(1);
    await h.clock.advance(1);
    expect(await outcome).toMatchObject({ code: 'state_timeout', limitMs: 8000 });
    expect(actuator.live).toBe(0);
  });
});

describe('a trip ends its node', () => {
  test("between steps, as a failing guard would: the subtree's actuator is cancelled with the trip as reason and the parent moves on", async () => {
    let actuator!: FakeActuator;
    const h = harness(
      {
        t: 'root { selector { sequence while(watchdog, "maxStateDuration", 500) { action [hang] } action [fallback] } }',
      },
      (bindings, clock) => {
        actuator = new FakeActuator(clock);
        bindings.registerAction('hang', (ctx) => actuator.command(ctx, 'hang'));
        bindings.registerAction('fallback', (ctx) => actuator.command(ctx, 100));
      },
    );
    const outcome = h.runner.run('t', { args: {}, world: unusedWorld });
    await h.clock.advance(500);
    expect(actuator.stopped).toBe(1);
    expect(actuator.signals[0]!.reason).toMatchObject({ code: 'state_timeout' });
    expect(actuator.started).toBe(2);
    await h.clock.advance(100);
    expect(await outcome).toEqual({ ok: true });
  });

  test('`then succeed` ends the tripped node as succeeded, so a time-boxed branch lets its sequence go on', async () => {
    let actuator!: FakeActuator;
    const trips: WatchdogTripEvent[] = [];
    const h = harness(
      {
        t: 'root { sequence { sequence while(watchdog, "maxStateDuration", 500) then succeed { action [hang] } action [next] } }',
      },
      (bindings, clock) => {
        actuator = new FakeActuator(clock);
        bindings.registerAction('hang', (ctx) => actuator.command(ctx, 'hang'));
        bindings.registerAction('next', (ctx) => actuator.command(ctx, 100));
      },
      { hooks: { watchdogTrip: (event) => trips.push(event) } },
    );
    const outcome = h.runner.run('t', { args: {}, world: unusedWorld });
    await h.clock.advance(600);
    expect(await outcome).toEqual({ ok: true });
    expect(trips).toMatchObject([
      { kind: 'maxStateDuration', failure: { code: 'state_timeout', nodePath: 't/sequence/0:sequence' } },
    ]);
    expect(actuator.stopped).toBe(1);
    expect(actuator.finished).toBe(1);
  });
});

test('a trip of a watchdog on the root node ends the run with the trip', async () => {
  let actuator!: FakeActuator;
  const h = harness({ t: 'root while(watchdog, "ttfa", 300) { action [hang] }' }, (bindings, clock) => {
    actuator = new FakeActuator(clock);
    bindings.registerAction('hang', () => new Promise<never>(() => undefined));
  });
  const outcome = h.runner.run('t', { args: {}, world: unusedWorld });
  await h.clock.advance(300);
  expect(await outcome).toMatchObject({ ok: false, code: 'ttfa_exceeded', nodePath: 't' });
  expect(actuator.live).toBe(0);
  expect(h.runner.activeRuns()).toBe(0);
});

describe('a trip counts where a failing guard would', () => {
  test('each trip under a retry is one attempt', async () => {
    let actuator!: FakeActuator;
    const h = harness(
      { t: 'root { retry [2] { sequence while(watchdog, "maxStateDuration", 100) { action [hang] } } }' },
      (bindings, clock) => {
        actuator = new FakeActuator(clock);
        bindings.registerAction('hang', (ctx) => actuator.command(ctx, 'hang'));
      },
    );
    const outcome = h.runner.run('t', { args: {}, world: unusedWorld });
    await h.clock.advance(200);
    expect(await outcome).toMatchObject({ ok: false, code: 'state_timeout' });
    expect(actuator.started).toBe(2);
    expect(actuator.live).toBe(0);
  });

  test('each `then succeed` trip under a repeat is one iteration', async () => {
    let actuator!: FakeActuator;
    const h = harness(
      { t: 'root { repeat [2] { sequence while(watchdog, "maxStateDuration", 100) then succeed { action [hang] } } }' },
      (bindings, clock) => {
        actuator = new FakeActuator(clock);
        bindings.registerAction('hang', (ctx) => actuator.command(ctx, 'hang'));
      },
    );
    const outcome = h.runner.run('t', { args: {}, world: unusedWorld });
    await h.clock.advance(200);
    expect(await outcome).toEqual({ ok: true });
    expect(actuator.started).toBe(2);
  });
});

test('a watched node whose start an outer guard cut short never ran, so its watchdog does not trip', async () => {
  let actuator!: FakeActuator;
  const trips: WatchdogTripEvent[] = [];
  const h = harness(
    {
      t: 'root { selector { retry [3] while(retryable) { parallel while(watchdog, "ttfa", 500) { action [refused] action [other] } } action [fallback] } }',
    },
    (bindings, clock) => {
      actuator = new FakeActuator(clock);
      bindings.registerAction('refused', () => {
        throw Object.assign(new Error('refused'), { code: 'guard_failed' });
      });
      bindings.registerAction('other', (ctx) => actuator.command(ctx, 'hang'));
      bindings.registerAction('fallback', (ctx) => actuator.command(ctx, 1000));
    },
    { hooks: { watchdogTrip: (event) => trips.push(event) } },
  );
  const outcome = h.runner.run(
    't',
    { args: {}, world: unusedWorld },
    { watchdogDefaults: { ttfaMs: 1e9, noActuatorMs: 1e9, maxStateDurationMs: 1e9 } },
  );
  await h.clock.advance(1000);
  expect(await outcome).toEqual({ ok: true });
  expect(trips).toEqual([]);
});

test('a `then succeed` trip is not blamed for a later failure', async () => {
  const h = harness(
    {
      t: 'root { sequence { sequence while(watchdog, "maxStateDuration", 100) then succeed { action [silent] } action [refuse] } }',
    },
    (bindings) => {
      bindings.registerAction('silent', () => new Promise<never>(() => undefined));
      bindings.registerAction('refuse', () => false);
    },
  );
  const outcome = h.runner.run('t', { args: {}, world: unusedWorld });
  await h.clock.advance(100);
  const result = await outcome;
  expect(result).toMatchObject({ ok: false, code: 'runner_error' });
  expect(result.ok ? '' : result.detail).toMatch(/action\(refuse\) returned false/);
});
