import { describe, expect, it } from 'vitest';
import { DEFAULT_STUCK_DETECTION_CONFIG as config } from '../../src/stuck/config.js';
import { FlapDetector } from '../../src/stuck/flap-detector.js';

function armed(): { detector: FlapDetector; state: Float64Array } {
  const detector = new FlapDetector(config.flap);
  const state = new Float64Array(detector.slots);
  detector.activate(state, 0);
  return { detector, state };
}

describe('FlapDetector', () => {
  it('trips on the 4th reached/stopped reversal within 10 s without net displacement', () => {
    const { detector, state } = armed();
    const statuses = ['reached', 'stopped', 'reached', 'stopped', 'reached'] as const;
    const results = statuses.map((status, i) =>
      detector.pathStatus(state, 0, i * 1_000, status, { x: 0.2 * (i % 2), y: 64, z: 0 }),
    );
    expect(results.slice(0, 4)).toEqual([null, null, null, null]);
    expect(results[4]).toMatchObject({
      type: 'flap',
      failureCode: 'stuck.flap',
      since: 1_000,
      detectedAt: 4_000,
      evidence: { reversals: 4, lastReversal: 'path', windowMs: 10_000 },
    });
  });

  it('does not trip when the reversals are spread over more than the window', () => {
    const { detector, state } = armed();
    const statuses = ['reached', 'stopped', 'reached', 'stopped', 'reached', 'stopped'] as const;
    const trips = statuses.filter((status, i) =>
      detector.pathStatus(state, 0, i * 4_000, status, { x: 0, y: 64, z: 0 }),
    ).length;
    expect(trips).toBe(0);
  });

  it('does not trip when the reversals come with net displacement', () => {
    const { detector, state } = armed();
    const statuses = ['reached', 'stopped', 'reached', 'stopped', 'reached'] as const;
    const trips = statuses.filter((status, i) =>
      detector.pathStatus(state, 0, i * 500, status, { x: i * 2, y: 64, z: 0 }),
    ).length;
    expect(trips).toBe(0);
  });

  it('counts heading reversals: pacing back and forth over one block trips', () => {
    const { detector, state } = armed();
    let detection = null;
    let t = 0;
    for (let leg = 0; leg < 10 && !detection; leg++) {
      for (let step = 1; step <= 5 && !detection; step++) {
        const x = leg % 2 === 0 ? step * 0.2 : 1 - step * 0.2;
        detection = detector.sample(state, 0, (t += 100), { x: x, y: 64, z: 0 });
      }
    }
    expect(detection).toMatchObject({ type: 'flap', evidence: { lastReversal: 'heading' } });
  });

  it('does not count the corners of a path as reversals', () => {
    const { detector, state } = armed();
    let t = 0;
    let x = 0;
    let z = 0;
    for (let i = 0; i < 400; i++) {
      if (Math.floor(i / 10) % 2 === 0) x += 0.2;
      else z += 0.2;
      expect(detector.sample(state, 0, (t += 50), { x: x, y: 64, z: z })).toBeNull();
    }
  });

  it('stays quiet while inactive', () => {
    const { detector, state } = armed();
    detector.deactivate(state, 0);
    const statuses = ['reached', 'stopped', 'reached', 'stopped', 'reached'] as const;
    expect(statuses.filter((status, i) => detector.pathStatus(state, 0, i, status, { x: 0, y: 64, z: 0 }))).toEqual([]);
  });
});
