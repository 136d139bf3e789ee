import { describe, expect, it } from 'vitest';
import { DEFAULT_STUCK_DETECTION_CONFIG as config } from '../../src/stuck/config.js';
import { PositionDetector } from '../../src/stuck/position-detector.js';

const tick = config.tickMs;

function armed(): { detector: PositionDetector; state: Float64Array } {
  const detector = new PositionDetector(config.position);
  const state = new Float64Array(detector.slots);
  detector.activate(state, 0, 0);
  detector.sample(state, 0, 0, { x: 0, y: 64, z: 0 });
  return { detector, state };
}

describe('PositionDetector', () => {
  it('does not trip at 100 ticks without movement and trips at the 101st (20 TPS, 5 s)', () => {
    const { detector, state } = armed();
    for (let i = 1; i <= 100; i++) expect(detector.sample(state, 0, i * tick, { x: 0, y: 64, z: 0 })).toBeNull();
    const detection = detector.sample(state, 0, 101 * tick, { x: 0, y: 64, z: 0 });
    expect(detection).toMatchObject({
      type: 'position',
      failureCode: 'stuck.position',
      since: 0,
      detectedAt: 101 * tick,
      position: { x: 0, y: 64, z: 0 },
      evidence: { thresholdMs: 5_000, heldMs: 5_050 },
    });
    expect(detection?.reason).toContain('movement capability');
  });

  it('resets on movement: 50 still ticks, a step, then 100 more still ticks do not trip', () => {
    const { detector, state } = armed();
    let t = 0;
    for (let i = 0; i < 50; i++) detector.sample(state, 0, (t += tick), { x: 0, y: 64, z: 0 });
    expect(detector.sample(state, 0, (t += tick), { x: 1, y: 64, z: 0 })).toBeNull();
    for (let i = 0; i < 100; i++) expect(detector.sample(state, 0, (t += tick), { x: 1, y: 64, z: 0 })).toBeNull();
    expect(detector.sample(state, 0, t + tick, { x: 1, y: 64, z: 0 })?.type).toBe('position');
  });

  it('ignores jitter below epsilon, even when it alternates every tick', () => {
    const { detector, state } = armed();
    let tripped = 0;
    for (let i = 1; i <= 101; i++)
      if (detector.sample(state, 0, i * tick, { x: i % 2 === 0 ? 0.05 : -0.05, y: 64, z: 0 })) tripped++;
    expect(tripped).toBe(1);
  });

  it('trips once per episode and re-arms only after the agent moves', () => {
    const { detector, state } = armed();
    let t = 0;
    const trips = (ticks: number, x: number): number => {
      let count = 0;
      for (let i = 0; i < ticks; i++) if (detector.sample(state, 0, (t += tick), { x: x, y: 64, z: 0 })) count++;
      return count;
    };
    expect(trips(400, 0)).toBe(1);
    expect(trips(102, 3)).toBe(1);
  });

  it('stays quiet while no movement capability is active', () => {
    const { detector, state } = armed();
    detector.deactivate(state, 0);
    for (let i = 1; i <= 1_000; i++) expect(detector.sample(state, 0, i * tick, { x: 0, y: 64, z: 0 })).toBeNull();
  });

  it('uses its own slice of a shared state array', () => {
    const detector = new PositionDetector(config.position, 3);
    const state = new Float64Array(3 + detector.slots + 10);
    detector.activate(state, 10, 0);
    detector.sample(state, 10, 0, { x: 5, y: 5, z: 5 });
    expect(state.subarray(0, 13).every((v) => v === 0)).toBe(true);
    expect(detector.sample(state, 10, 5_001, { x: 5, y: 5, z: 5 })?.type).toBe('position');
  });
});
