import { describe, expect, it } from 'vitest';
import { DEFAULT_STUCK_DETECTION_CONFIG as config } from '../../src/stuck/config.js';
import { ProgressDetector } from '../../src/stuck/progress-detector.js';

const tick = config.tickMs;

function started(): { detector: ProgressDetector; state: Float64Array } {
  const detector = new ProgressDetector(config.progress);
  const state = new Float64Array(detector.slots);
  detector.begin(state, 0, 0, 0, 100);
  return { detector, state };
}

describe('ProgressDetector', () => {
  it('trips after 200 ticks (10 s) stalled at 0/100, not before', () => {
    const { detector, state } = started();
    for (let i = 1; i <= 200; i++) {
      detector.report(state, 0, i * tick, 0, 100);
      expect(detector.check(state, 0, i * tick)).toBeNull();
    }
    expect(detector.check(state, 0, 201 * tick)).toMatchObject({
      type: 'progress',
      failureCode: 'stuck.progress',
      evidence: { best: 0, total: 100, stallMs: 10_000 },
    });
  });

  it('resets on progress: 100 stalled ticks, a gain, then 200 more stalled ticks do not trip', () => {
    const { detector, state } = started();
    let t = 0;
    for (let i = 0; i < 100; i++) detector.check(state, 0, (t += tick));
    detector.report(state, 0, (t += tick), 5, 100);
    for (let i = 0; i < 200; i++) expect(detector.check(state, 0, (t += tick))).toBeNull();
    expect(detector.check(state, 0, t + tick)?.evidence.best).toBe(5);
  });

  it('does not count oscillation as progress (negative distance going back and forth)', () => {
    const detector = new ProgressDetector(config.progress);
    const state = new Float64Array(detector.slots);
    detector.begin(state, 0, 0, -10, Number.NaN);
    let detection = null;
    for (let i = 1; i <= 201 && !detection; i++) {
      detector.report(state, 0, i * tick, i % 2 === 0 ? -10 : -10.5, Number.NaN);
      detection = detector.check(state, 0, i * tick);
    }
    expect(detection?.evidence).toMatchObject({ best: -10, total: null });
  });

  it('does not trip once the total is reached', () => {
    const { detector, state } = started();
    detector.report(state, 0, 10, 100, 100);
    expect(detector.check(state, 0, 1_000_000)).toBeNull();
  });
});
