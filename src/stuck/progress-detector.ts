import type { StuckDetectionConfig } from './config.js';
import { createDetection, round, type Detection } from './detection.js';

const ACTIVE = 0;
const LATCHED = 1;
const BEST = 2;
const TOTAL = 3;
const LAST_GAIN_AT = 4;
const LAST_VALUE = 5;

/**
 * Trips when a capability's progress counter (blocks mined, items placed, or
 * minus the distance to the goal) has not beaten its best value for longer
 * than the stall limit. Comparing against the best, not the last report,
 * means oscillating values (distance going up and down) are not progress.
 * A counter that reached its total is done, not stuck.
 */
export class ProgressDetector {
  static readonly SLOTS = 6;
  readonly slots = ProgressDetector.SLOTS;
  private readonly stallMs: number;
  private readonly minGain: number;

  constructor(
    config: StuckDetectionConfig['progress'],
    readonly offset = 0,
  ) {
    this.stallMs = config.stallMs;
    this.minGain = config.minGain;
  }

  /** Starts watching with an initial value; `total` is NaN when the capability has no known end. */
  begin(state: Float64Array, base: number, now: number, initial: number, total: number): void {
    const at = base + this.offset;
    state[at + ACTIVE] = 1;
    state[at + LATCHED] = 0;
    state[at + BEST] = initial;
    state[at + LAST_VALUE] = initial;
    state[at + TOTAL] = total;
    state[at + LAST_GAIN_AT] = now;
  }

  end(state: Float64Array, base: number): void {
    const at = base + this.offset;
    state[at + ACTIVE] = 0;
    state[at + LATCHED] = 0;
  }

  isActive(state: Float64Array, base: number): boolean {
    return state[base + this.offset + ACTIVE] === 1;
  }

  /** Records a progress report; `total` NaN keeps the previous total. */
  report(state: Float64Array, base: number, now: number, value: number, total: number): void {
    const at = base + this.offset;
    if (state[at + ACTIVE] !== 1) this.begin(state, base, now, value, total);
    state[at + LAST_VALUE] = value;
    if (!Number.isNaN(total)) state[at + TOTAL] = total;
    if (value > state[at + BEST]! + this.minGain) {
      state[at + BEST] = value;
      state[at + LAST_GAIN_AT] = now;
      state[at + LATCHED] = 0;
    }
  }

  check(state: Float64Array, base: number, now: number): Detection | null {
    const at = base + this.offset;
    if (state[at + ACTIVE] !== 1 || state[at + LATCHED] === 1) return null;
    const best = state[at + BEST]!;
    const total = state[at + TOTAL]!;
    if (best >= total) return null;
    const since = state[at + LAST_GAIN_AT]!;
    if (now - since <= this.stallMs) return null;
    state[at + LATCHED] = 1;
    const of = Number.isNaN(total) ? '' : `/${round(total)}`;
    return createDetection(
      'progress',
      `progress stalled at ${round(best)}${of} for ${Math.round(now - since)} ms (limit ${this.stallMs} ms)`,
      since,
      now,
      {
        best: round(best),
        last: round(state[at + LAST_VALUE]!),
        total: Number.isNaN(total) ? null : round(total),
        heldMs: now - since,
        stallMs: this.stallMs,
      },
    );
  }
}
