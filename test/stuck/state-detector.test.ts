import { describe, expect, it } from 'vitest';
import { DEFAULT_STUCK_DETECTION_CONFIG as config } from '../../src/stuck/config.js';
import { StateDetector } from '../../src/stuck/state-detector.js';

const tick = config.tickMs;

describe('StateDetector', () => {
  it('times PLANNING out after 600 ticks (30 s): no trip at 600, trip at 601', () => {
    const detector = new StateDetector(config.state);
    const state = new Float64Array(detector.slots);
    detector.enter(state, 0, 0, 'PLANNING');
    for (let i = 1; i <= 600; i++) expect(detector.check(state, 0, i * tick, 'PLANNING')).toBeNull();
    expect(detector.check(state, 0, 601 * tick, 'PLANNING')).toMatchObject({
      type: 'state',
      failureCode: 'state_timeout',
      since: 0,
      evidence: { state: 'PLANNING', timeoutMs: 30_000 },
    });
  });

  it('applies per-state timeouts: EXECUTING 60 s, RECOVERING 15 s, IDLE none', () => {
    const detector = new StateDetector(config.state);
    const state = new Float64Array(detector.slots);
    detector.enter(state, 0, 0, 'EXECUTING');
    expect(detector.check(state, 0, 60_000, 'EXECUTING')).toBeNull();
    expect(detector.check(state, 0, 60_001, 'EXECUTING')?.evidence.timeoutMs).toBe(60_000);
    detector.enter(state, 0, 100_000, 'RECOVERING');
    expect(detector.check(state, 0, 115_001, 'RECOVERING')?.evidence.timeoutMs).toBe(15_000);
    detector.enter(state, 0, 200_000, 'IDLE');
    expect(detector.check(state, 0, 10_000_000, 'IDLE')).toBeNull();
  });

  it('re-arms on entering a state and trips once per stay', () => {
    const detector = new StateDetector({ timeoutsMs: { WAIT: 100 } });
    const state = new Float64Array(detector.slots);
    detector.enter(state, 0, 0, 'WAIT');
    expect(detector.check(state, 0, 101, 'WAIT')).not.toBeNull();
    expect(detector.check(state, 0, 500, 'WAIT')).toBeNull();
    detector.enter(state, 0, 500, 'WAIT');
    expect(detector.check(state, 0, 600, 'WAIT')).toBeNull();
    expect(detector.check(state, 0, 601, 'WAIT')).not.toBeNull();
  });
});
