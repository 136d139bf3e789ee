import { describe, expect, it } from 'vitest';
import { DEFAULT_STUCK_DETECTION_CONFIG as config } from '../../src/stuck/config.js';
import { HangingDetector } from '../../src/stuck/hanging-detector.js';

describe('HangingDetector', () => {
  it('trips when the invocation is outstanding past its deadline', () => {
    const detector = new HangingDetector(config.hanging);
    const state = new Float64Array(detector.slots);
    detector.begin(state, 0, 1_000, 5_000);
    expect(detector.check(state, 0, 6_000, 'step-1')).toBeNull();
    expect(detector.check(state, 0, 6_001, 'step-1')).toMatchObject({
      type: 'hanging',
      failureCode: 'hanging_invocation',
      since: 1_000,
      evidence: { invocation: 'step-1', deadlineMs: 5_000, outstandingMs: 5_001 },
    });
    expect(detector.check(state, 0, 9_000, 'step-1')).toBeNull();
  });

  it('uses the configured default deadline and stops watching once settled', () => {
    const detector = new HangingDetector(config.hanging);
    const state = new Float64Array(detector.slots);
    detector.begin(state, 0, 0);
    expect(detector.check(state, 0, 60_001, 'x')?.evidence.deadlineMs).toBe(60_000);
    detector.begin(state, 0, 0);
    detector.settle(state, 0);
    expect(detector.check(state, 0, 1_000_000, 'x')).toBeNull();
  });
});
