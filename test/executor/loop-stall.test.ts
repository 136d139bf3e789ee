import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { LagDiscountingClock, ManualClock } from '../../src/clock/index.js';
import type { Clock } from '../../src/contracts/clock.js';
import { assembleExecutor } from '../../src/executor/assemble.js';
import type { EventOf, ExecutorEvent, PlanResult } from '../../src/executor/events.js';
import { injectFaults } from '../../src/executor/fault-injection.js';
import { parseFaultSpecs } from '../../src/world/faults/index.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { plan } from '../helpers/executor.js';

/** A stalled event loop (issue 34): `runMs` of a healthy loop, then `stallMs` with nothing running, timers late. */
interface Stall {
  runMs: number;
  stallMs: number;
}

const walk = { stepId: 'walk', type: 'navigate', args: { target: { kind: 'near', x: 8, y: 0, z: 0, range: 1 } } };
/** Ten times the longest limit that judges the walk (its 5 s deadline; TTFA is 2 s, noActuator 3 s). */
const TEN_TIMES_ITS_LIMITS = 50_000;

/**
 * Runs the walk with the world and the executor on one clock, as a worker's bot has them, the loop stalling as
 * `stalls` says, then healthy until the plan ends. `fault` makes the navigate runner hang (a real hang).
 */
async function stalledWalk(discounted: boolean, stalls: readonly Stall[], fault?: string) {
  const base = new ManualClock();
  const clock: Clock = discounted ? new LagDiscountingClock(base) : base;
  const world = SimWorld.create({ clock });
  const assembly = await assembleExecutor({
    registry: createDefaultRegistry(),
    world,
    clock,
    ...(fault ? { wrapInvoker: (invoker) => injectFaults(invoker, parseFaultSpecs([fault]), { clock }) } : {}),
  });
  const events: ExecutorEvent[] = [];
  assembly.executor.events.on('event', (event) => events.push(event));
  let result: PlanResult | undefined;
  void assembly.executor.run(plan(walk)).result.then((r) => (result = r));
  for (const { runMs, stallMs } of stalls) {
    if (result) break;
    await base.advance(runMs);
    await base.stall(stallMs);
  }
  await base.runUntil(() => result !== undefined, 10 * 60_000);
  expect(result, 'the plan ends').toBeDefined();
  const started = events.find((e): e is EventOf<'step.started'> => e.type === 'step.started')!;
  const firstFailure = events.find(
    (e): e is EventOf<'step.retry'> | EventOf<'step.ended'> =>
      (e.type === 'step.retry' || e.type === 'step.ended') && !('outcome' in e && e.outcome.ok),
  );
  return { result: result!, world, started, firstFailure, clock };
}

const repeatedStalls: Stall[] = Array.from({ length: 6 }, () => ({ runMs: 300, stallMs: TEN_TIMES_ITS_LIMITS }));

describe('a stalled event loop slows a step down, never fails it (issue 34)', () => {
  it('a walk whose loop stalls for ten times its limits, six times over, ends ok on the lag-discounting clock', async () => {
    const { result, world } = await stalledWalk(true, repeatedStalls);
    expect(result.steps[0]?.outcome).toMatchObject({ ok: true });
    expect(world.position().x).toBeGreaterThanOrEqual(7);
  });

  it('the same stalls charged to the step (the wall clock) fail it, as the bench saw: what the discount is for', async () => {
    const { result } = await stalledWalk(false, repeatedStalls);
    expect(result.steps[0]?.outcome).toMatchObject({ ok: false, code: 'hanging_invocation' });
  });

  it('a runner that never acts still trips TTFA at its 2 s of healthy time, the stalls not counted', async () => {
    const { result, started, firstFailure } = await stalledWalk(true, repeatedStalls, 'navigate=never_actuates');
    expect(result.ok).toBe(false);
    expect(firstFailure).toMatchObject({ code: 'ttfa_exceeded' });
    expect(firstFailure!.at - started.at).toBeGreaterThanOrEqual(2_000);
  });

  it('a runner that hangs mid-walk still fails as it does with a healthy loop, however long the stalls', async () => {
    const healthy = await stalledWalk(true, [], 'navigate=hang');
    const stalled = await stalledWalk(true, repeatedStalls, 'navigate=hang');
    expect(stalled.result.steps[0]?.outcome).toMatchObject({ ok: false, code: 'stuck.position' });
    expect(stalled.result.steps[0]?.outcome).toEqual(healthy.result.steps[0]?.outcome);
  });

  it('with a healthy loop a hang trips exactly as on the base clock', async () => {
    const onBase = await stalledWalk(false, [], 'navigate=hang');
    const onLag = await stalledWalk(true, [], 'navigate=hang');
    expect(onLag.result.steps[0]?.outcome).toEqual(onBase.result.steps[0]?.outcome);
    expect(onLag.firstFailure!.at - onLag.started.at).toBe(onBase.firstFailure!.at - onBase.started.at);
  });

  it('for any pattern of stalls: a walk ends ok, and a runner that never acts trips only after its limit of healthy time', async () => {
    const stalls = fc.array(
      fc.record({ runMs: fc.integer({ min: 0, max: 2_000 }), stallMs: fc.integer({ min: 0, max: 60_000 }) }),
      { maxLength: 8 },
    );
    await fc.assert(
      fc.asyncProperty(stalls, async (pattern) => {
        const ok = await stalledWalk(true, pattern);
        expect(ok.result.steps[0]?.outcome).toMatchObject({ ok: true });
        const hung = await stalledWalk(true, pattern, 'navigate=never_actuates');
        expect(hung.firstFailure).toMatchObject({ code: 'ttfa_exceeded' });
        expect(hung.firstFailure!.at - hung.started.at).toBeGreaterThanOrEqual(2_000);
      }),
      { numRuns: 15 },
    );
  });
});
