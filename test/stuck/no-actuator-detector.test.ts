import { describe, expect, it } from 'vitest';
import { DEFAULT_STUCK_DETECTION_CONFIG as config } from '../../src/stuck/config.js';
import { NoActuatorDetector } from '../../src/stuck/no-actuator-detector.js';

function begun(): { detector: NoActuatorDetector; state: Float64Array } {
  const detector = new NoActuatorDetector(config.noActuator);
  const state = new Float64Array(detector.slots);
  detector.begin(state, 0, 0);
  return { detector, state };
}

describe('NoActuatorDetector (A4, stuck.loop)', () => {
  it('trips only when more than 3 s pass since the last actuator stamp', () => {
    const { detector, state } = begun();
    detector.stamp(state, 0, 1_000);
    expect(detector.check(state, 0, 4_000)).toBeNull();
    expect(detector.check(state, 0, 4_001)).toMatchObject({
      type: 'no_actuator',
      failureCode: 'stuck.loop',
      since: 1_000,
      evidence: { idleMs: 3_001, limitMs: 3_000 },
    });
  });

  it('counts a command in flight as activity, and measures from when it settled', () => {
    const { detector, state } = begun();
    detector.commandStarted(state, 0, 100);
    expect(detector.check(state, 0, 60_000)).toBeNull();
    detector.commandSettled(state, 0, 60_000);
    expect(detector.check(state, 0, 63_000)).toBeNull();
    expect(detector.check(state, 0, 63_001)?.since).toBe(60_000);
  });

  it('trips once per idle spell; the next stamp re-arms it', () => {
    const { detector, state } = begun();
    expect(detector.check(state, 0, 3_001)).not.toBeNull();
    expect(detector.check(state, 0, 9_000)).toBeNull();
    detector.stamp(state, 0, 9_000);
    expect(detector.check(state, 0, 12_001)).not.toBeNull();
  });

  it('is silent when no step is active', () => {
    const { detector, state } = begun();
    detector.end(state, 0);
    expect(detector.check(state, 0, 1_000_000)).toBeNull();
  });
});
