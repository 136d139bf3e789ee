import { expect, test } from 'vitest';
import type { ActuationEvent, NodeStateChange, RunEndEvent } from '../../src/runtime/index.js';
import { FakeActuator, harness, unusedWorld } from './harness.js';

test("hooks attached from outside see node states with paths and times, actuator stamps and the run's end", async () => {
  const states: (Pick<NodeStateChange, 'nodePath' | 'from' | 'to'> & { at: number })[] = [];
  const stamps: Pick<ActuationEvent, 'nodePath' | 'command' | 'at'>[] = [];
  const ends: RunEndEvent[] = [];
  const h = harness(
    { fetch: 'root {\n  selector {\n    action [miss]\n    action [move]\n  }\n}' },
    (bindings, clock) => {
      const actuator = new FakeActuator(clock);
      bindings.registerAction('miss', () => false);
      bindings.registerAction('move', (ctx) => actuator.command(ctx, 40, 'walk'));
    },
    {
      hooks: {
        actuate: ({ nodePath, command, at }) => stamps.push({ nodePath, command, at }),
        runEnd: (event) => ends.push(event),
      },
    },
  );
  const outcome = h.runner.run(
    'fetch',
    { args: {}, world: unusedWorld },
    {
      hooks: {
        nodeStates: ({ changes, at }) =>
          states.push(...changes.map(({ nodePath, from, to }) => ({ nodePath, from, to, at }))),
      },
    },
  );
  await h.clock.advance(40);
  expect(await outcome).toEqual({ ok: true });
  expect(states).toEqual([
    { nodePath: 'fetch/selector/0:action(miss)', from: 'ready', to: 'failed', at: 0 },
    { nodePath: 'fetch/selector/1:action(move)', from: 'ready', to: 'running', at: 0 },
    { nodePath: 'fetch/selector', from: 'ready', to: 'running', at: 0 },
    { nodePath: 'fetch', from: 'ready', to: 'running', at: 0 },
    { nodePath: 'fetch/selector/1:action(move)', from: 'running', to: 'succeeded', at: 40 },
    { nodePath: 'fetch/selector', from: 'running', to: 'succeeded', at: 40 },
    { nodePath: 'fetch', from: 'running', to: 'succeeded', at: 40 },
  ]);
  expect(stamps).toEqual([{ nodePath: 'fetch/selector/1:action(move)', command: 'walk', at: 0 }]);
  expect(ends).toMatchObject([{ tree: 'fetch', startedAt: 0, at: 40, outcome: { ok: true }, liveActuators: 0 }]);
});

test('a nodeStates hook that throws ends the run explicitly as runner_error, naming the hook', async () => {
  const h = harness({ t: 'root { action [ok] }' }, (bindings) => {
    bindings.registerAction('ok', () => true);
  });
  const outcome = h.runner.run(
    't',
    { args: {}, world: unusedWorld },
    {
      hooks: {
        nodeStates: () => {
          throw new Error('observer bug');
        },
      },
    },
  );
  expect(await outcome).toMatchObject({
    ok: false,
    code: 'runner_error',
    detail: 't: the nodeStates hook threw: observer bug',
  });
  expect(h.runner.activeRuns()).toBe(0);
});

test.each([
  ['actuate', 'root { action [move] }'],
  ['watchdogTrip', 'root { sequence while(watchdog, "ttfa", 100) { action [silent] } }'],
  ['progress', 'root { action [report] }'],
] as const)(
  'an %s hook that throws ends the run as runner_error too, and leaves no actuator running',
  async (hook, tree) => {
    let actuator!: FakeActuator;
    let settled = false;
    const h = harness({ t: tree }, (bindings, clock) => {
      actuator = new FakeActuator(clock);
      bindings.registerAction('move', (ctx) => actuator.command(ctx, 100));
      bindings.registerAction('silent', () => new Promise<never>(() => undefined));
      bindings.registerAction('report', (ctx) => {
        ctx.progress(1, 2);
        return actuator.command(ctx, 100);
      });
    });
    const outcome = h.runner
      .run(
        't',
        { args: {}, world: unusedWorld },
        {
          hooks: {
            [hook]: () => {
              throw new Error('observer bug');
            },
          },
        },
      )
      .finally(() => (settled = true));
    await h.clock.advance(150);
    expect(settled).toBe(true);
    expect(await outcome).toMatchObject({
      ok: false,
      code: 'runner_error',
      detail: `t: the ${hook} hook threw: observer bug`,
    });
    expect(actuator.live).toBe(0);
    expect(h.runner.activeRuns()).toBe(0);
  },
);
