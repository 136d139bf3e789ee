import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import type { RunContext, Runner } from '../../src/registry/capability-spec.js';
import {
  type Fault,
  InjectedFault,
  injectRunnerFaults,
  parseFaultSpecs,
  withRunnerFault,
} from '../../src/world/faults/index.js';
import { SimWorld, track } from '../../src/world/sim/index.js';

interface Goal {
  z: number;
}

/** A real (if small) runner: walk to z, through the one actuation API. */
const walk: Runner<Goal> = async (ctx) => {
  const startedAt = ctx.clock.now();
  await ctx.actuate('goto', () => ctx.world.goto({ kind: 'block', x: 0, y: 0, z: ctx.args.z }, { signal: ctx.signal }));
  return { ok: true, startedAt, endedAt: ctx.clock.now() };
};

function harness(z = 6) {
  const clock = new ManualClock();
  const world = SimWorld.create({ clock });
  const controller = new AbortController();
  const commands: string[] = [];
  const ctx: RunContext<Goal> = {
    args: { z },
    world,
    signal: controller.signal,
    clock,
    actuate: (command, act) => {
      commands.push(command);
      return act();
    },
    progress: () => {},
  };
  return { clock, world, controller, commands, ctx };
}

async function runWith(fault: Fault, advanceMs = 30_000) {
  const h = harness();
  const outcome = track(withRunnerFault(walk, fault, { label: 'navigate' })(h.ctx));
  await h.clock.advance(advanceMs);
  return { ...h, outcome };
}

describe('runner faults', () => {
  it('the unfaulted runner walks and resolves (control)', async () => {
    const { outcome, world, commands } = await runWith({ kind: 'slow', delayMs: 0 });
    expect(outcome.outcome.state).toBe('ok');
    expect(world.position().z).toBe(6.5);
    expect(commands).toEqual(['goto']);
  });

  it('hang issues one command then never settles; abort rejects it', async () => {
    const { outcome, commands, controller, clock } = await runWith({ kind: 'hang' });
    expect(commands).toEqual(['hang']);
    expect(outcome.outcome.state).toBe('pending');
    controller.abort();
    await clock.advance(0);
    expect(outcome.outcome).toMatchObject({ code: 'aborted' });
  });

  it('hang_ignoring_abort never settles, even when aborted', async () => {
    const { outcome, controller, clock } = await runWith({ kind: 'hang_ignoring_abort' });
    controller.abort();
    await clock.advance(60_000);
    expect(outcome.outcome.state).toBe('pending');
  });

  it('never_actuates waits without any command until aborted', async () => {
    const { outcome, commands, controller, clock, world } = await runWith({ kind: 'never_actuates' });
    expect(commands).toEqual([]);
    expect(outcome.outcome.state).toBe('pending');
    expect(world.actuatorLog).toEqual([]);
    controller.abort();
    await clock.advance(0);
    expect(outcome.outcome).toMatchObject({ code: 'aborted' });
  });

  it('throw throws synchronously; reject rejects', async () => {
    const h = harness();
    expect(() => withRunnerFault(walk, { kind: 'throw' })(h.ctx)).toThrow(InjectedFault);
    await expect(withRunnerFault(walk, { kind: 'reject', code: 'runner_error' })(h.ctx)).rejects.toMatchObject({
      code: 'runner_error',
    });
  });

  it('slow starts the real runner only after the delay', async () => {
    const h = harness();
    const outcome = track(withRunnerFault(walk, { kind: 'slow', delayMs: 2000 })(h.ctx));
    await h.clock.advance(1999);
    expect(h.commands).toEqual([]);
    await h.clock.advance(10_000);
    expect(h.commands).toEqual(['goto']);
    expect(outcome.outcome.state).toBe('ok');
  });

  it('flaky with p=1 always fails and with p=0 never does', async () => {
    expect((await runWith({ kind: 'flaky', probability: 1 })).outcome.outcome).toMatchObject({
      state: 'rejected',
      code: 'not_a_world_error',
    });
    expect((await runWith({ kind: 'flaky', probability: 0 })).outcome.outcome.state).toBe('ok');
  });

  it('wrong_effects runs the runner, which reports success while the world stays unchanged', async () => {
    const { outcome, world, commands } = await runWith({ kind: 'wrong_effects' });
    expect(outcome.outcome.state).toBe('ok');
    expect(commands).toEqual(['goto']);
    expect(world.position().z).toBe(0.5);
  });

  it('partial moves part of the way, then stalls until aborted', async () => {
    const { outcome, world, controller, clock } = await runWith({ kind: 'partial', afterMs: 500 });
    expect(world.position().z).toBe(2.5);
    expect(outcome.outcome.state).toBe('pending');
    controller.abort();
    await clock.advance(0);
    expect(outcome.outcome).toMatchObject({ code: 'aborted' });
  });

  it('injectRunnerFaults wraps only the targeted verb, and only for runner-level faults', async () => {
    const rules = parseFaultSpecs(['navigate=never_actuates', 'dig_block=hang']);
    const h = harness();
    expect(injectRunnerFaults('dig_block', walk, rules)).toBe(walk);
    expect(injectRunnerFaults('flee', walk, rules)).toBe(walk);
    const outcome = track(injectRunnerFaults('navigate', walk, rules)(h.ctx));
    await h.clock.advance(10_000);
    expect(h.commands).toEqual([]);
    expect(outcome.outcome.state).toBe('pending');
  });
});
