import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import navigate from '../../capabilities/navigate/index.js';
import { ManualClock } from '../../src/clock/index.js';
import type { Clock, TimerHandle } from '../../src/contracts/clock.js';
import { assembleExecutor } from '../../src/executor/assemble.js';
import type { EventOf, ExecutorEvent, PlanResult } from '../../src/executor/events.js';
import type { AttemptOutcome, AttemptRequest, StepInvoker } from '../../src/executor/invoker.js';
import { CapabilityRegistry, defineCapability, type AnyCapabilitySpec } from '../../src/index.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { harness, plan, type Harness } from '../helpers/executor.js';

/*
 * Rules of docs/contract.md shown from a run through the executor, not only on their parts: the steps the executor
 * makes itself are checked as a plan's are (V1, V2), a step that stops acting ends stuck.loop (A4), a step past its
 * deadline ends deadline_exceeded (I2), a capability without a tree ends not_runnable (I4), a stalled progress
 * counter ends stuck.progress, and a supervision loop that stops ticking is reported as a zombie incident.
 */

const TICK_MS = 50;

/** A capability with no tree: a plain invoker (below) runs it, or nothing does (not_runnable). */
const holdStill = (expectedDurationMs = 1000) =>
  defineCapability({
    name: 'hold_still',
    version: '1.0.0',
    description: 'test capability run by the invoker a test gives',
    inputSchema: z.strictObject({}),
    safetyLevel: 'safe',
    expectedDurationMs,
    retryableCodes: [],
    preconds: [],
    effects: [],
    guard: () => ({ ok: true }),
    acceptance: () => ({ ok: true }),
  });

/** Wants planks it never has; its sub-goals are whatever the test asks for. */
const needsPlanks = (subgoal: { stepId: string; type: string; args: Record<string, unknown> }) =>
  defineCapability({
    ...holdStill(),
    name: 'use_planks',
    guard: () => ({
      ok: false,
      reason: 'no planks',
      missing: { predicate: 'has_item', detail: { item: 'oak_planks', count: 1 } },
    }),
    subgoals: () => [subgoal],
  });

const registryWith = (...specs: AnyCapabilitySpec[]) =>
  specs.reduce((registry, spec) => registry.register(spec), new CapabilityRegistry().register(navigate));
/** navigate's tree: the only one this registry needs. */
const treePaths = ['trees/navigate.mdsl'];

/** An invoker for every attempt: `act` runs it until it returns or the attempt's signal aborts it. */
function invoking(act: (request: AttemptRequest) => Promise<void>): () => StepInvoker {
  return () => ({
    async invoke(request): Promise<AttemptOutcome> {
      await act(request);
      return request.signal.aborted ? { ok: false, code: 'aborted', detail: 'aborted' } : { ok: true };
    },
  });
}

const aborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));

/** A command that stays in flight until the attempt is aborted: activity for the no-actuator detector. */
async function busyUntilAborted(request: AttemptRequest): Promise<void> {
  request.onActuatorStart('hold');
  await aborted(request.signal);
  request.onActuatorSettled('hold');
}

const of = <T extends ExecutorEvent['type']>(h: Pick<Harness, 'events'>, type: T) =>
  h.events.filter((e): e is EventOf<T> => e.type === type);

async function runStep(type: string, extra: Parameters<typeof harness>[1]) {
  const h = await harness({}, { treePaths, ...extra });
  const result = await h.run(plan({ stepId: 'it', type, args: {} }), 600_000);
  const ends = of(h, 'step.ended').filter((e) => e.stepId === 'it');
  expect(ends).toHaveLength(1);
  return { h, result, end: ends[0]!, started: of(h, 'attempt.started')[0]! };
}

describe('V1 and V2 for the steps the executor makes (resolveStep)', () => {
  it('a sub-goal naming an unknown verb fails its step before anything runs, naming the verb', async () => {
    const registry = registryWith(needsPlanks({ stepId: 'chop', type: 'fell_tree', args: {} }));
    const { h, end } = await runStep('use_planks', { registry });
    expect(end.outcome.ok).toBe(false);
    expect(end.outcome.ok || end.outcome.detail).toMatch(/sub-goal it\/chop is invalid: .*fell_tree/);
    expect(of(h, 'step.started').filter((e) => e.parentStepId === 'it')).toEqual([]);
    expect(h.world.actuatorLog).toEqual([]);
  });

  it('a sub-goal whose arguments do not fit its verb fails its step before anything runs, naming the verb', async () => {
    const registry = registryWith(needsPlanks({ stepId: 'walk', type: 'navigate', args: { target: 'the woods' } }));
    const { h, end } = await runStep('use_planks', { registry });
    expect(end.outcome.ok).toBe(false);
    expect(end.outcome.ok || end.outcome.detail).toMatch(/sub-goal it\/walk is invalid: .*do not fit navigate/);
    expect(of(h, 'step.started').filter((e) => e.parentStepId === 'it')).toEqual([]);
    expect(h.world.actuatorLog).toEqual([]);
  });
});

describe('V1 and V2 for a safety response (resolveStep on the fast path)', () => {
  /** A consume_food of a project's own, asking for an argument the executor's hunger response does not give. */
  const pickyEater = defineCapability({
    name: 'consume_food',
    version: '1.0.0',
    description: 'test capability whose arguments the hunger response does not give',
    inputSchema: z.strictObject({ item: z.string() }),
    safetyLevel: 'safe',
    expectedDurationMs: 1000,
    retryableCodes: [],
    preconds: [],
    effects: [],
    guard: () => ({ ok: true }),
    acceptance: () => ({ ok: true }),
  });

  it.each([
    ['not registered', registryWith()],
    ['registered with arguments the response does not fit', registryWith(pickyEater)],
  ])('a hungry bot whose response verb is %s runs no response, says so, and its step goes on', async (_, registry) => {
    // Bread in the pack, so that the hunger signal offers consume_food (with nothing to eat it offers nothing to run).
    const h = await harness({ food: 2, inventory: { bread: 1 } }, { registry, treePaths });
    const walk = { stepId: 'it', type: 'navigate', args: { target: { kind: 'near', x: 6, y: 0, z: 0, range: 1 } } };
    const result = await h.run(plan(walk));
    expect(of(h, 'safety.emergency')[0]).toMatchObject({ signal: 'hunger', response: 'none available' });
    // Why none: each response and what refused it (its verb unknown, its arguments not the capability's).
    expect(of(h, 'safety.emergency')[0]!.detail).toMatch(/; every guard refused: consume_food \(.+\)$/);
    expect(of(h, 'step.started').map((e) => e.stepId)).toEqual(['it']);
    expect(h.world.actuatorLog.map((a) => a.command)).not.toContain('consume');
    expect(result.ok).toBe(true);
  });
});

describe('the codes a run ends with', () => {
  it('A4: a step that acts once and then idles past 3 s trips stuck.loop at the first tick past the limit', async () => {
    const actOnce = invoking(async (request) => {
      request.onActuatorStart('poke');
      request.onActuatorSettled('poke');
      await aborted(request.signal);
    });
    const { h, result, started } = await runStep('hold_still', {
      registry: registryWith(holdStill(10_000)),
      wrapInvoker: actOnce,
    });
    const [stuck] = of(h, 'step.stuck');
    expect(stuck).toMatchObject({ stepId: 'it', detector: 'no_actuator', code: 'stuck.loop' });
    expect(stuck!.at - started.at).toBeGreaterThan(3_000);
    expect(stuck!.at - started.at).toBeLessThanOrEqual(3_000 + TICK_MS);
    expect(result.ok).toBe(false);
  });

  it('I2: a step still busy at its deadline ends deadline_exceeded within a tick of it, and is not repaired', async () => {
    const { h, end } = await runStep('hold_still', {
      registry: registryWith(holdStill(1000)),
      wrapInvoker: invoking(busyUntilAborted),
    });
    const deadlineAt = of(h, 'step.started')[0]!.deadlineAt;
    expect(end.outcome).toMatchObject({ ok: false, code: 'deadline_exceeded' });
    expect(end.at).toBeGreaterThanOrEqual(deadlineAt);
    expect(end.at).toBeLessThanOrEqual(deadlineAt + TICK_MS);
    expect(of(h, 'step.stuck')).toEqual([]);
    expect(of(h, 'step.repair')).toEqual([]);
  });

  it('I4: a capability registered without a tree ends not_runnable, with no retry and nothing moved', async () => {
    const { h, end } = await runStep('hold_still', { registry: registryWith(holdStill()) });
    expect(end.outcome).toMatchObject({ ok: false, code: 'not_runnable' });
    expect(end.outcome.ok || end.outcome.detail).toContain('hold_still@1.0.0 declares no tree');
    expect(end.attempts).toBe(1);
    expect(h.world.actuatorLog).toEqual([]);
  });

  it('a progress counter that stops rising short of its total trips stuck.progress past 10 s, not before', async () => {
    const stalls = invoking(async (request) => {
      request.onActuatorStart('hold');
      request.onProgress(3, 10, { unit: 'things' });
      await aborted(request.signal);
      request.onActuatorSettled('hold');
    });
    const { h, result, started } = await runStep('hold_still', {
      registry: registryWith(holdStill(10_000)),
      wrapInvoker: stalls,
    });
    const [stuck] = of(h, 'step.stuck');
    expect(stuck).toMatchObject({ stepId: 'it', detector: 'progress', code: 'stuck.progress' });
    expect(stuck!.at - started.at).toBeGreaterThan(10_000);
    expect(stuck!.at - started.at).toBeLessThanOrEqual(10_000 + TICK_MS);
    expect(result.ok).toBe(false);
  });
});

/** The manual clock, except that once `frozen` the supervision tick's timers never fire: a loop that stopped. */
class StallingClock implements Clock {
  frozen = false;
  constructor(private readonly inner: ManualClock) {}
  now(): number {
    return this.inner.now();
  }
  setTimeout(callback: () => void, delayMs: number): TimerHandle {
    return this.inner.setTimeout(this.frozen && delayMs === TICK_MS ? () => {} : callback, delayMs);
  }
  clearTimeout(handle: TimerHandle): void {
    this.inner.clearTimeout(handle);
  }
}

describe('the heartbeat', () => {
  it("a supervision loop that stops ticking mid-step is reported as the run's zombie incident, once", async () => {
    const manual = new ManualClock();
    const clock = new StallingClock(manual);
    const registry = registryWith(holdStill(10_000));
    const world = SimWorld.create({ clock: manual });
    const assembly = await assembleExecutor({
      registry,
      world,
      clock,
      treePaths,
      wrapInvoker: invoking(busyUntilAborted),
    });
    const events: ExecutorEvent[] = [];
    assembly.executor.events.on('event', (e) => events.push(e));
    let result: PlanResult | undefined;
    void assembly.executor.run(plan({ stepId: 'it', type: 'hold_still', args: {} })).result.then((r) => (result = r));
    await manual.advance(1_000);
    expect(events.filter((e) => e.type === 'incident')).toEqual([]);
    clock.frozen = true;
    await manual.runUntil(() => result !== undefined, 120_000);
    const incidents = events.filter((e): e is EventOf<'incident'> => e.type === 'incident');
    expect(incidents).toHaveLength(1);
    expect(incidents[0]).toMatchObject({ planId: 'test-plan', kind: 'zombie' });
    expect(incidents[0]!.detail).toMatch(/has not ticked for \d+ ms \(limit 2000 ms\): zombie/);
    // Silent for more than 2 s, seen at the watcher's next 500 ms check.
    expect(incidents[0]!.at - 1_000).toBeGreaterThan(2_000);
    expect(incidents[0]!.at - 1_000).toBeLessThanOrEqual(2_000 + 500 + TICK_MS);
  });
});
