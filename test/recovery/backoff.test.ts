import { describe, expect, it } from 'vitest';
import { backoffDelayMs } from '../../src/recovery/backoff.js';
import { mulberry32 } from '../../src/random.js';

const policy = { initialDelayMs: 1_000, maxDelayMs: 10_000, backoffMultiplier: 2, jitterRatio: 0.2 };

describe('backoffDelayMs', () => {
  it('doubles from 1 s up to the 10 s cap without jitter', () => {
    const none = { ...policy, jitterRatio: 0 };
    expect([1, 2, 3, 4, 5, 6].map((attempt) => backoffDelayMs(attempt, none, Math.random))).toEqual([
      1_000, 2_000, 4_000, 8_000, 10_000, 10_000,
    ]);
  });

  it('jitters within ±20 % and replays exactly from the same seed', () => {
    const run = (seed: number) => {
      const random = mulberry32(seed);
      return Array.from({ length: 50 }, (_, i) => backoffDelayMs((i % 3) + 1, policy, random));
    };
    const first = run(7);
    expect(run(7)).toEqual(first);
    expect(run(8)).not.toEqual(first);
    first.forEach((delay, i) => {
      const base = 1_000 * 2 ** (i % 3);
      expect(delay).toBeGreaterThanOrEqual(base * 0.8);
      expect(delay).toBeLessThanOrEqual(base * 1.2);
    });
    expect(new Set(first).size).toBeGreaterThan(10);
  });
});
