import { BehaviourTree, State } from 'mistreevous';
import { describe, expect, test } from 'vitest';
import { NodeAbortedError } from '../../src/runtime/index.js';
import { FakeActuator, flush, harness, unusedWorld } from './harness.js';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('mistreevous 4.3.1 on its own', () => {
  test("accepts an aborted run's late promise as the restarted node's result (the bug verbtree removes)", async () => {
    const calls: ReturnType<typeof deferred<State>>[] = [];
    const agent = {
      allowed: true,
      isAllowed() {
        return this.allowed;
      },
      slow() {
        const call = deferred<State>();
        calls.push(call);
        return call.promise;
      },
    };
    const tree = new BehaviourTree('root { sequence while(isAllowed) { action [slow] } }', agent);
    tree.step(); // first run of `slow` starts
    agent.allowed = false;
    tree.step(); // the guard aborts it; the tree fails
    agent.allowed = true;
    tree.step(); // the tree restarts: second run of `slow`, still pending
    expect(calls).toHaveLength(2);
    calls[0]!.resolve(State.SUCCEEDED); // the aborted first run settles late
    await flush();
    tree.step();
    expect(tree.getState()).toBe(State.SUCCEEDED); // ...and is taken as the second run's result
  });
});

describe('verbtree runtime cancellation', () => {
  test('a late settle of an aborted invocation never reaches the restarted node', async () => {
    const calls: { signal: AbortSignal; done: ReturnType<typeof deferred<boolean>> }[] = [];
    let allowed = true;
    const h = harness({ t: 'root { retry [2] { sequence while(allowed) { action [slow] } } }' }, (bindings) => {
      bindings.registerCondition('allowed', () => allowed);
      bindings.registerAction('slow', (ctx) => {
        const done = deferred<boolean>();
        calls.push({ signal: ctx.signal, done });
        return done.promise;
      });
    });
    const outcome = h.runner.run('t', { args: {}, world: unusedWorld });
    expect(calls).toHaveLength(1);
    allowed = false;
    h.runner.tick(); // the guard aborts the first invocation
    expect(calls[0]!.signal.aborted).toBe(true);
    expect(calls[0]!.signal.reason).toBeInstanceOf(NodeAbortedError);
    allowed = true;
    await flush(); // retry restarts the sequence: a second invocation
    expect(calls).toHaveLength(2);
    calls[0]!.done.resolve(true); // the stale one settles
    await flush();
    h.runner.tick();
    expect(h.runner.activeRuns()).toBe(1); // still waiting on the second invocation
    calls[1]!.done.resolve(false);
    await flush();
    h.runner.tick();
    // retry [2] exhausted by the guard abort and the real failure: the late success was not counted.
    expect(await outcome).toMatchObject({ ok: false });
  });

  test("a rejected action fails its node with the error's code instead of throwing out of step()", async () => {
    const h = harness({ t: 'root { selector { action [boom] action [fine] } }' }, (bindings) => {
      bindings.registerAction('boom', () => Promise.reject(Object.assign(new Error('no route'), { code: 'no_path' })));
      bindings.registerAction('fine', () => true);
    });
    expect(await h.runner.run('t', { args: {}, world: unusedWorld })).toEqual({ ok: true });
    const failing = harness({ t: 'root { action [boom] }' }, (bindings) => {
      bindings.registerAction('boom', () => Promise.reject(Object.assign(new Error('no route'), { code: 'no_path' })));
    });
    expect(await failing.runner.run('t', { args: {}, world: unusedWorld })).toMatchObject({
      ok: false,
      code: 'no_path',
      nodePath: 't/action(boom)',
    });
  });

  test("the caller's signal stops the live actuator and ends the run with the reason's code", async () => {
    let actuator!: FakeActuator;
    const h = harness({ t: 'root { action [move] }' }, (bindings, clock) => {
      actuator = new FakeActuator(clock);
      bindings.registerAction('move', (ctx) => actuator.command(ctx, 'hang'));
    });
    const caller = new AbortController();
    const outcome = h.runner.run('t', { args: {}, world: unusedWorld }, { signal: caller.signal });
    await h.clock.advance(500);
    caller.abort('preempted');
    expect(await outcome).toMatchObject({ ok: false, code: 'preempted' });
    expect(actuator.stopped).toBe(1);
    expect(actuator.live).toBe(0);
    expect(h.runner.activeRuns()).toBe(0);
    expect(h.clock.pendingTimers()).toBe(0);
  });

  test("the caller's abort names the action that was acting as the failing node, so a monitor can mark it", async () => {
    const h = harness({ t: 'root { sequence { action [quick] action [move] } }' }, (bindings, clock) => {
      const actuator = new FakeActuator(clock);
      bindings.registerAction('quick', () => true);
      bindings.registerAction('move', (ctx) => actuator.command(ctx, 'hang'));
    });
    const caller = new AbortController();
    const outcome = h.runner.run('t', { args: {}, world: unusedWorld }, { signal: caller.signal });
    await h.clock.advance(300);
    caller.abort('preempted');
    const ended = await outcome;
    expect(ended).toMatchObject({ ok: false, code: 'preempted' });
    expect(!ended.ok && ended.nodePath).toMatch(/action\(move\)$/);
    expect(!ended.ok && ended.detail).toMatch(/action\(move\): aborted by the caller/);
  });

  test('shutdown aborts every run and waits for their actuators to stop', async () => {
    let actuator!: FakeActuator;
    const h = harness({ t: 'root { parallel { action [move] action [move] } }' }, (bindings, clock) => {
      actuator = new FakeActuator(clock);
      bindings.registerAction('move', (ctx) => actuator.command(ctx, 'hang'));
    });
    const outcomes = [
      h.runner.run('t', { args: {}, world: unusedWorld }),
      h.runner.run('t', { args: {}, world: unusedWorld }),
    ];
    await h.clock.advance(100);
    expect(actuator.live).toBe(4);
    await h.runner.shutdown();
    expect((await Promise.all(outcomes)).map((o) => !o.ok && o.code)).toEqual(['aborted', 'aborted']);
    expect(actuator.stopped).toBe(4);
    expect(actuator.live).toBe(0);
  });

  test('an aborted invocation cannot issue another actuator command', async () => {
    let issued = 0;
    let lateAttempt: Promise<unknown> | undefined;
    let allowed = true;
    const h = harness({ t: 'root { sequence while(allowed) { action [twoStep] } }' }, (bindings) => {
      bindings.registerCondition('allowed', () => allowed);
      bindings.registerAction('twoStep', async (ctx) => {
        await ctx.actuate('first', () => Promise.resolve(void issued++));
        await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
        lateAttempt = ctx.actuate('second', () => Promise.resolve(void issued++));
        await lateAttempt.catch(() => undefined);
      });
    });
    const outcome = h.runner.run('t', { args: {}, world: unusedWorld });
    await flush();
    allowed = false;
    h.runner.tick();
    expect(await outcome).toMatchObject({ ok: false });
    await flush();
    await expect(lateAttempt).rejects.toBeInstanceOf(NodeAbortedError);
    expect(issued).toBe(1);
  });

  test('a run that resolves leaves no actuator live and no timer pending', async () => {
    let actuator!: FakeActuator;
    const h = harness({ t: 'root { race { action [quick] action [slow] } }' }, (bindings, clock) => {
      actuator = new FakeActuator(clock);
      bindings.registerAction('quick', (ctx) => actuator.command(ctx, 100));
      bindings.registerAction('slow', (ctx) => actuator.command(ctx, 10_000));
    });
    const outcome = h.runner.run('t', { args: {}, world: unusedWorld });
    await h.clock.advance(150);
    expect(await outcome).toEqual({ ok: true });
    expect(actuator).toMatchObject({ started: 2, finished: 1, stopped: 1, live: 0 });
    expect(h.clock.pendingTimers()).toBe(0);
  });
});
