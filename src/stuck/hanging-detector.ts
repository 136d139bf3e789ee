import type { StuckDetectionConfig } from './config.js';
import { createDetection, type Detection } from './detection.js';

const ACTIVE = 0;
const LATCHED = 1;
const STARTED_AT = 2;
const DEADLINE_AT = 3;

/**
 * Trips when a runner's invocation (its promise) is still outstanding past its
 * deadline. One invocation per agent at a time: an agent runs one step at a time.
 */
export class HangingDetector {
  static readonly SLOTS = 4;
  readonly slots = HangingDetector.SLOTS;
  readonly defaultDeadlineMs: number;

  constructor(
    config: StuckDetectionConfig['hanging'],
    readonly offset = 0,
  ) {
    this.defaultDeadlineMs = config.defaultDeadlineMs;
  }

  begin(state: Float64Array, base: number, now: number, deadlineMs: number = this.defaultDeadlineMs): void {
    const at = base + this.offset;
    state[at + ACTIVE] = 1;
    state[at + LATCHED] = 0;
    state[at + STARTED_AT] = now;
    state[at + DEADLINE_AT] = now + deadlineMs;
  }

  settle(state: Float64Array, base: number): void {
    const at = base + this.offset;
    state[at + ACTIVE] = 0;
    state[at + LATCHED] = 0;
  }

  check(state: Float64Array, base: number, now: number, label: string): Detection | null {
    const at = base + this.offset;
    if (state[at + ACTIVE] !== 1 || state[at + LATCHED] === 1) return null;
    const deadlineAt = state[at + DEADLINE_AT]!;
    if (now <= deadlineAt) return null;
    state[at + LATCHED] = 1;
    const startedAt = state[at + STARTED_AT]!;
    return createDetection(
      'hanging',
      `invocation ${label} outstanding for ${Math.round(now - startedAt)} ms, past its deadline of ${Math.round(deadlineAt - startedAt)} ms`,
      startedAt,
      now,
      { invocation: label, outstandingMs: now - startedAt, deadlineMs: deadlineAt - startedAt },
    );
  }
}
