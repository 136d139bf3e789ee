import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PLAN_LIMIT_MS } from '../../bench/embedded-support.js';
import { LOOP_SHARE_PER_BOT_MS, QUEUE_POLL_MS, describeLimits, fleetLimits } from '../../bench/fleet-limits.js';

/*
 * Issue 34, §3: the fleet bench's limits follow from the fleet's size and the workers' claim cap, so that the 300 row
 * is judged on its plans' completion, not cut off by a join window of fixed length (120 s cut it short: 52 to 78 of
 * 300 joined in it on a loaded machine).
 */

const today = { claimsPerPass: 8, claimEveryMs: 3_000, joinsAtOnce: 8, loginMs: 15_000 };

describe('the fleet bench’s limits', () => {
  it('give 300 bots on two workers every claim pass and every wave of logins before giving up on the join', () => {
    const limits = fleetLimits({ ...today, bots: 300, workers: 2 });
    // 150 bots a worker, 8 a pass: 19 passes, the last 18 × 3 s after the first; 19 waves of 8 logins of up to 15 s.
    expect(limits).toMatchObject({ perWorker: 150, claimPasses: 19, claimBoundMs: 54_000 });
    expect(limits.joinLimitMs).toBe(54_000 + 19 * 15_000);
    expect(limits.joinLimitMs).toBeGreaterThan(120_000);
    expect(limits.planLimitMs).toBe(PLAN_LIMIT_MS + QUEUE_POLL_MS + 150 * LOOP_SHARE_PER_BOT_MS);
    expect(describeLimits({ ...today, bots: 300, workers: 2 }, limits)).toContain('19 claim pass(es) of at most 8');
  });

  it('leave a small fleet the limits of one plan, and grow with the bots a worker holds, never with more workers', () => {
    expect(fleetLimits({ ...today, bots: 8, workers: 1 })).toMatchObject({ claimPasses: 1, claimBoundMs: 0 });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000 }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 64 }),
        (bots, workers, claimsPerPass) => {
          const shape = { ...today, bots, workers, claimsPerPass };
          const limits = fleetLimits(shape);
          const bigger = fleetLimits({ ...shape, bots: bots + 1 });
          const spread = fleetLimits({ ...shape, workers: workers + 1 });
          // Every claim pass the cap makes the worker wait for fits in the join limit, with a login's time after it.
          expect(limits.claimPasses * claimsPerPass).toBeGreaterThanOrEqual(limits.perWorker);
          expect(limits.joinLimitMs).toBeGreaterThanOrEqual(limits.claimBoundMs + today.loginMs);
          expect(limits.planLimitMs).toBeGreaterThanOrEqual(PLAN_LIMIT_MS + QUEUE_POLL_MS);
          expect(bigger.joinLimitMs).toBeGreaterThanOrEqual(limits.joinLimitMs);
          expect(bigger.planLimitMs).toBeGreaterThanOrEqual(limits.planLimitMs);
          expect(spread.joinLimitMs).toBeLessThanOrEqual(limits.joinLimitMs);
          expect(spread.planLimitMs).toBeLessThanOrEqual(limits.planLimitMs);
        },
      ),
    );
  });
});
