import { describe, expect, it } from 'vitest';
import { DEFAULT_STUCK_DETECTION_CONFIG as config } from '../../src/stuck/config.js';
import { PathDetector } from '../../src/stuck/path-detector.js';

describe('PathDetector', () => {
  it('trips on the third consecutive failure, not the first two', () => {
    const detector = new PathDetector(config.path);
    const state = new Float64Array(detector.slots);
    expect(detector.report(state, 0, 100, 'noPath')).toBeNull();
    expect(detector.report(state, 0, 200, 'timeout')).toBeNull();
    expect(detector.report(state, 0, 300, 'noPath')).toMatchObject({
      type: 'path',
      failureCode: 'stuck.path',
      since: 100,
      detectedAt: 300,
      evidence: { consecutiveFailures: 3, lastStatus: 'noPath' },
    });
  });

  it("names what ruled the last path out when the world says, so the step's detail does", () => {
    const detector = new PathDetector(config.path);
    const state = new Float64Array(detector.slots);
    detector.report(state, 0, 1, 'noPath');
    detector.report(state, 0, 2, 'noPath');
    expect(detector.report(state, 0, 3, 'noPath', 'no way out of the water at 3,2,0')?.reason).toBe(
      'pathfinding failed 3 times in a row (last: noPath, no way out of the water at 3,2,0; limit 3)',
    );
  });

  it('a planned path clears the run; partial and stopped neither count nor clear', () => {
    const detector = new PathDetector(config.path);
    const state = new Float64Array(detector.slots);
    detector.report(state, 0, 1, 'noPath');
    detector.report(state, 0, 2, 'noPath');
    detector.report(state, 0, 3, 'planned');
    expect(detector.report(state, 0, 4, 'noPath')).toBeNull();
    detector.report(state, 0, 5, 'partial');
    detector.report(state, 0, 6, 'stopped');
    expect(detector.report(state, 0, 7, 'noPath')).toBeNull();
    expect(detector.report(state, 0, 8, 'timeout')?.evidence.consecutiveFailures).toBe(3);
  });

  it('reports a run of failures once, then re-arms after a success', () => {
    const detector = new PathDetector(config.path);
    const state = new Float64Array(detector.slots);
    const trips = (n: number): number => {
      let count = 0;
      for (let i = 0; i < n; i++) if (detector.report(state, 0, i, 'noPath')) count++;
      return count;
    };
    expect(trips(10)).toBe(1);
    detector.report(state, 0, 11, 'reached');
    expect(trips(3)).toBe(1);
  });
});
