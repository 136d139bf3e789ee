import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TimerHandle } from '../../src/contracts/clock.js';
import {
  LagDiscountingClock,
  ManualClock,
  SystemClock,
  longestWallWaitMs,
  wallClockOf,
} from '../../src/clock/index.js';
import { wallTimeOf } from '../../src/cli/worker/outage.js';

const options = { probeEveryMs: 100, toleranceMs: 50, maxStolenShare: 0.9, burstMs: 30_000 };

function clocks() {
  const base = new ManualClock();
  return { base, lag: new LagDiscountingClock(base, options) };
}

describe('ManualClock.stall', () => {
  it('moves time with nothing running, then fires what fell due at once, late, in due order', async () => {
    const base = new ManualClock();
    const fired: [string, number][] = [];
    base.setTimeout(() => fired.push(['late', base.now()]), 300);
    base.setTimeout(() => fired.push(['early', base.now()]), 100);
    base.setTimeout(() => fired.push(['after', base.now()]), 5_000);
    await base.stall(1_000);
    expect(fired).toEqual([
      ['early', 1_000],
      ['late', 1_000],
    ]);
    await base.advance(4_000);
    expect(fired.at(-1)).toEqual(['after', 5_000]);
  });
});

describe('LagDiscountingClock', () => {
  it('is the base clock while the loop is on time', async () => {
    const { base, lag } = clocks();
    const fired: number[] = [];
    lag.setTimeout(() => fired.push(lag.now()), 250);
    lag.setTimeout(() => fired.push(lag.now()), 1_000);
    await base.advance(2_000);
    expect(fired).toEqual([250, 1_000]);
    expect(lag.now()).toBe(base.now());
    expect(lag.stolenMs()).toBe(0);
  });

  it('does not charge a stall to its timers: a timer waits for its delay of time the process had', async () => {
    const { base, lag } = clocks();
    let firedAt: number | null = null;
    lag.setTimeout(() => (firedAt = lag.now()), 1_000);
    await base.advance(200);
    await base.stall(30_000);
    expect(firedAt).toBeNull();
    // Of the 30 s stall only what the probe (due at 300) could not tell from jitter (50 ms past its due) counts.
    expect(lag.now()).toBe(300 + 50);
    expect(lag.base.now()).toBe(30_200);
    expect(lag.stolenMs()).toBe(29_850);
    await base.advance(649);
    expect(firedAt).toBeNull();
    await base.advance(1);
    expect(firedAt).toBe(1_000);
  });

  it('counts the stall for a timer that fires in the same late turn as the probe, before it', async () => {
    const { base, lag } = clocks();
    let seen: number | null = null;
    // Due at 60, before the probe (at 100): it fires first after the stall, and reads the stall discounted already.
    lag.setTimeout(() => (seen = lag.now()), 60);
    const longer = { fired: false };
    lag.setTimeout(() => (longer.fired = true), 500);
    await base.stall(10_000);
    expect(seen).toBe(100 + 50);
    expect(longer.fired).toBe(false);
  });

  it('stops probing once nothing is timed, so an idle process has no timer of its own', async () => {
    const { base, lag } = clocks();
    const handle = lag.setTimeout(() => undefined, 10_000);
    expect(base.pendingTimers()).toBe(2);
    lag.clearTimeout(handle);
    await base.advance(100);
    expect(base.pendingTimers()).toBe(0);
  });

  it('for any stalls within the burst, a timer fires once its delay of un-stalled time has passed, never before, at most a probe late', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5_000 }),
        // Twenty stalls of up to 1.5 s: at most the 30 s burst, so every one of them is discounted whole.
        fc.array(fc.record({ runMs: fc.integer({ min: 0, max: 400 }), stallMs: fc.integer({ min: 0, max: 1_500 }) }), {
          maxLength: 20,
        }),
        async (delayMs, pattern) => {
          const { base, lag } = clocks();
          let firedAt: number | null = null;
          lag.setTimeout(() => (firedAt = lag.now()), delayMs);
          for (const { runMs, stallMs } of pattern) {
            await base.advance(runMs);
            await base.stall(stallMs);
          }
          await base.runUntil(() => firedAt !== null, 10 * delayMs + 1_000);
          // A stall is charged at most one probe period and its tolerance: what the probe cannot tell from jitter.
          expect(firedAt).toBeGreaterThanOrEqual(delayMs);
          expect(firedAt).toBeLessThanOrEqual(delayMs + options.probeEveryMs + options.toleranceMs);
          // Un-stalled time is at most the base time: the discount never runs the clock ahead.
          expect(lag.now()).toBeLessThanOrEqual(base.now());
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('LagDiscountingClock timers', () => {
  it('for any timers cleared from outside or from callbacks, re-armed from their own, amid stalls: each fires once unless cleared first, and the probe stops after the last', async () => {
    const plan = fc.array(
      fc.record({
        delayMs: fc.integer({ min: 0, max: 3_000 }),
        // What its callback does: nothing, clear another timer, or arm itself once more.
        then: fc.oneof(fc.constant('nothing' as const), fc.constant('rearm' as const), fc.nat({ max: 9 })),
        clearAfterMs: fc.option(fc.integer({ min: 0, max: 3_000 }), { nil: null }),
      }),
      { minLength: 1, maxLength: 10 },
    );
    const stalls = fc.array(fc.integer({ min: 0, max: 4_000 }), { maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(plan, stalls, async (timers, stallsMs) => {
        const { base, lag } = clocks();
        const fired = timers.map(() => 0);
        const cleared = timers.map(() => false);
        const handles: TimerHandle[] = [];
        const arm = (i: number, delayMs: number, rearm: boolean): TimerHandle =>
          lag.setTimeout(() => {
            fired[i]!++;
            const then = timers[i]!.then;
            if (then === 'rearm' && rearm) handles[i] = arm(i, delayMs, false);
            else if (typeof then === 'number' && then < timers.length && then !== i) {
              if (fired[then] === 0) cleared[then] = true;
              lag.clearTimeout(handles[then]!);
            }
          }, delayMs);
        timers.forEach(({ delayMs }, i) => (handles[i] = arm(i, delayMs, true)));
        timers.forEach(({ clearAfterMs }, i) => {
          if (clearAfterMs === null) return;
          base.setTimeout(() => {
            if (fired[i] === 0) cleared[i] = true;
            lag.clearTimeout(handles[i]!);
          }, clearAfterMs);
        });
        for (const stallMs of stallsMs) {
          await base.advance(50);
          await base.stall(stallMs);
        }
        await base.advance(1_000_000);
        timers.forEach(({ then }, i) => {
          if (cleared[i]) expect(fired[i]).toBe(0);
          else expect(fired[i]).toBeGreaterThanOrEqual(1);
          expect(fired[i]).toBeLessThanOrEqual(then === 'rearm' ? 2 : 1);
        });
        // Nothing left pending: the probe has stopped, so an idle process is not woken for it.
        expect(base.pendingTimers()).toBe(0);
      }),
      { numRuns: 100 },
    );
  });
});

describe('LagDiscountingClock on a loop late for good', () => {
  it('for any lateness, a timer still fires within longestWallWaitMs of its delay, and now() never goes back', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 20_000 }),
        fc.integer({ min: 0, max: 60_000 }),
        fc.integer({ min: 0, max: 200 }),
        async (delayMs, lateMs, runMs) => {
          const { base, lag } = clocks();
          let firedAt: number | null = null;
          lag.setTimeout(() => (firedAt = base.now()), delayMs);
          const ceiling = longestWallWaitMs(delayMs, options);
          let last = lag.now();
          while (firedAt === null && base.now() <= ceiling + lateMs + runMs) {
            await base.advance(runMs);
            await base.stall(lateMs);
            expect(lag.now()).toBeGreaterThanOrEqual(last);
            expect(lag.now()).toBeLessThanOrEqual(base.now());
            last = lag.now();
          }
          // A hang on a loop that never catches up still trips: the discount is a share of wall time, not all of it.
          expect(firedAt).not.toBeNull();
          expect(firedAt).toBeLessThanOrEqual(ceiling + lateMs + runMs);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('still discounts a single stall up to the burst whole, after a loop late for a while has spent its budget', async () => {
    const { base, lag } = clocks();
    lag.setTimeout(() => undefined, 10_000_000);
    for (let i = 0; i < 100; i++) await base.stall(10_000);
    // 1,000 s late: at most the 30 s burst and 90 % of the 1,000 s discounted, the rest counted.
    expect(lag.now()).toBeGreaterThanOrEqual(1_000_000 - 30_000 - 900_000);
    await base.advance(1_000_000);
    const rested = lag.now();
    await base.stall(25_000);
    await base.advance(0);
    expect(lag.now() - rested).toBeLessThanOrEqual(options.probeEveryMs + options.toleranceMs);
  });

  it('takes a share below 1 only, naming the field', () => {
    expect(() => new LagDiscountingClock(new ManualClock(), { maxStolenShare: 1 })).toThrow(/maxStolenShare is 1/);
  });
});

describe('LagDiscountingClock over the system clock', () => {
  it("never holds the process open with its probe; its timers do, as the system clock's", () => {
    const system = new SystemClock();
    const handles: TimerHandle[] = [];
    const recording = {
      now: () => system.now(),
      setTimeout: (callback: () => void, ms: number) => {
        const handle = system.setTimeout(callback, ms);
        handles.push(handle);
        return handle;
      },
      clearTimeout: (handle: TimerHandle) => system.clearTimeout(handle),
    };
    const lag = new LagDiscountingClock(recording, options);
    const step = lag.setTimeout(() => undefined, 60_000);
    const [probe, timer] = handles.map((handle) => (handle as unknown as { timer: NodeJS.Timeout }).timer);
    expect(probe!.hasRef()).toBe(false);
    expect(timer!.hasRef()).toBe(true);
    lag.clearTimeout(step);
    system.clearTimeout(handles[0]!);
  });
});

/** wallTimeOf(at) is `agoMs` before now: never later, and earlier by at most a probe period and its tolerance. */
function expectWallTimeAgo(lag: LagDiscountingClock, at: number, agoMs: number): void {
  vi.setSystemTime(1_000_000_000_000);
  expect(wallTimeOf(lag, at)).toBeLessThanOrEqual(1_000_000_000_000 - agoMs);
  expect(wallTimeOf(lag, at)).toBeGreaterThanOrEqual(
    1_000_000_000_000 - agoMs - options.probeEveryMs - options.toleranceMs,
  );
}

describe('wall time beneath a lag-discounting clock', () => {
  afterEach(() => vi.useRealTimers());

  it('wallClockOf gives the base (for leases and heartbeats), any other clock itself', () => {
    const { base, lag } = clocks();
    expect(wallClockOf(lag)).toBe(base);
    expect(wallClockOf(base)).toBe(base);
  });

  it('wallTimeOf a moment before a stall is never later than the true moment', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { base, lag } = clocks();
    lag.setTimeout(() => undefined, 60_000);
    await base.advance(1_000);
    const connectedAt = lag.now();
    await base.stall(20_000);
    await base.advance(500);
    // The true moment was 20.5 s of wall time ago.
    expectWallTimeAgo(lag, connectedAt, 20_500);
  });

  it('wallTimeOf a moment after a stall is that moment, not one earlier by the stall', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { base, lag } = clocks();
    lag.setTimeout(() => undefined, 600_000);
    await base.stall(20_000);
    await base.advance(1_000);
    const awaySince = lag.now();
    await base.stall(5_000);
    await base.advance(500);
    // Away since 5.5 s of wall time ago; the 20 s stall before it is no part of that.
    expectWallTimeAgo(lag, awaySince, 5_500);
  });
});
