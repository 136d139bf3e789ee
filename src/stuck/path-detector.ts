import type { PathStatus } from '../contracts/world.js';
import type { StuckDetectionConfig } from './config.js';
import { createDetection, type Detection } from './detection.js';

const CONSECUTIVE = 0;
const FIRST_FAILURE_AT = 1;
const LATCHED = 2;

/**
 * Trips on the Nth consecutive `noPath`/`timeout`. A planned or reached path
 * clears the run; `partial` and `stopped` say nothing about reachability, so
 * they neither count nor clear.
 */
export class PathDetector {
  static readonly SLOTS = 3;
  readonly slots = PathDetector.SLOTS;
  private readonly maxFailures: number;

  constructor(
    config: StuckDetectionConfig['path'],
    readonly offset = 0,
  ) {
    this.maxFailures = config.maxConsecutiveFailures;
  }

  reset(state: Float64Array, base: number): void {
    const at = base + this.offset;
    state[at + CONSECUTIVE] = 0;
    state[at + LATCHED] = 0;
  }

  /** `why` is what ruled the last path out when the world says (its detail names it: "no way out of the water at ..."). */
  report(state: Float64Array, base: number, now: number, status: PathStatus, why?: string): Detection | null {
    const at = base + this.offset;
    if (status === 'planned' || status === 'reached') {
      this.reset(state, base);
      return null;
    }
    if (status !== 'noPath' && status !== 'timeout') return null;
    const failures = state[at + CONSECUTIVE]! + 1;
    state[at + CONSECUTIVE] = failures;
    if (failures === 1) state[at + FIRST_FAILURE_AT] = now;
    if (failures < this.maxFailures || state[at + LATCHED] === 1) return null;
    state[at + LATCHED] = 1;
    const since = state[at + FIRST_FAILURE_AT]!;
    return createDetection(
      'path',
      `pathfinding failed ${failures} times in a row (last: ${status}${why ? `, ${why}` : ''}; limit ${this.maxFailures})`,
      since,
      now,
      { consecutiveFailures: failures, lastStatus: status, limit: this.maxFailures },
    );
  }
}
