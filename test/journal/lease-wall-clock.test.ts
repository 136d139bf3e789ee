import { describe, expect, it } from 'vitest';
import { LagDiscountingClock, ManualClock } from '../../src/clock/index.js';
import { PlanLease } from '../../src/journal/lease.js';
import { openTemp } from './helpers.js';

/**
 * A run's clock discounts a stalled loop (issue 34), but a lease (and a runner's heartbeat, on the same wallClockOf)
 * is judged by other processes in wall time: after a stall it beats at once, as on the wall clock, never waiting it
 * out again.
 */
describe('a lease on a lag-discounting clock', () => {
  it('a plan lease beats on wall time as soon as a minute-long stall ends', async () => {
    const base = new ManualClock();
    const clock = new LagDiscountingClock(base);
    const { journal } = openTemp(() => base.now());
    const lease = await PlanLease.acquire(journal, 'p', { clock, kind: 'run', isAlive: () => true });
    await base.stall(60_000);
    expect((await journal.planLeaseHolder('p'))?.heartbeat_at).toBe(60_000);
    await lease.release();
  });
});
