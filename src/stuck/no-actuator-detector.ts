import type { StuckDetectionConfig } from './config.js';
import { createDetection, type Detection } from './detection.js';

const ACTIVE = 0;
const LATCHED = 1;
const LAST_STAMP = 2;
const IN_FLIGHT = 3;

/**
 * A4 in docs/contract.md: while a step is active, trips when no actuator command
 * was issued for longer than the limit (`stuck.loop`). A command still in
 * flight (a long `goto`, a slow `dig`) counts as activity; whether it is
 * getting anywhere is the position, progress and hanging detectors' job.
 */
export class NoActuatorDetector {
  static readonly SLOTS = 4;
  readonly slots = NoActuatorDetector.SLOTS;
  private readonly limitMs: number;

  constructor(
    config: StuckDetectionConfig['noActuator'],
    readonly offset = 0,
  ) {
    this.limitMs = config.limitMs;
  }

  /** A step became active; its dispatch is the first stamp. */
  begin(state: Float64Array, base: number, now: number): void {
    const at = base + this.offset;
    state[at + ACTIVE] = 1;
    state[at + LATCHED] = 0;
    state[at + LAST_STAMP] = now;
    state[at + IN_FLIGHT] = 0;
  }

  end(state: Float64Array, base: number): void {
    const at = base + this.offset;
    state[at + ACTIVE] = 0;
    state[at + IN_FLIGHT] = 0;
  }

  /** An instantaneous actuator command (look, stop, set control state). */
  stamp(state: Float64Array, base: number, now: number): void {
    const at = base + this.offset;
    state[at + LAST_STAMP] = now;
    state[at + LATCHED] = 0;
  }

  commandStarted(state: Float64Array, base: number, now: number): void {
    this.stamp(state, base, now);
    state[base + this.offset + IN_FLIGHT]! += 1;
  }

  commandSettled(state: Float64Array, base: number, now: number): void {
    this.stamp(state, base, now);
    const at = base + this.offset + IN_FLIGHT;
    state[at] = Math.max(0, state[at]! - 1);
  }

  check(state: Float64Array, base: number, now: number): Detection | null {
    const at = base + this.offset;
    if (state[at + ACTIVE] !== 1 || state[at + LATCHED] === 1 || state[at + IN_FLIGHT] !== 0) return null;
    const since = state[at + LAST_STAMP]!;
    if (now - since <= this.limitMs) return null;
    state[at + LATCHED] = 1;
    return createDetection(
      'no_actuator',
      `no actuator command for ${Math.round(now - since)} ms while the step was active (limit ${this.limitMs} ms)`,
      since,
      now,
      { idleMs: now - since, limitMs: this.limitMs },
    );
  }
}
