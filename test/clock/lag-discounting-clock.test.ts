import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LagDiscountingClock, ManualClock, wallClockOf } from '../../src/clock/index.js';
import { wallTimeOf } from '../../src/cli/worker/outage.js';

const options = { probeEveryMs: 100, toleranceMs: 50 };

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

  it('for any stalls, a timer fires once its delay of un-stalled time has passed, never before, at most a probe late', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5_000 }),
        fc.array(fc.record({ runMs: fc.integer({ min: 0, max: 400 }), stallMs: fc.integer({ min: 0, max: 20_000 }) }), {
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
    vi.setSystemTime(1_000_000_000_000);
    // The true moment was 20.5 s of wall time ago.
    expect(wallTimeOf(lag, connectedAt)).toBeLessThanOrEqual(1_000_000_000_000 - 20_500);
  });
});
