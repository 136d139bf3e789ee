import type { StuckDetectionConfig } from './config.js';
import { createDetection, type Detection } from './detection.js';

const ENTERED_AT = 0;
const TIMEOUT_MS = 1;
const LATCHED = 2;

/**
 * Trips when the agent (or a tree node) stays in one named state longer than
 * that state's timeout. The state name itself is kept by the caller; entering
 * a state (even the same one again) re-arms the detector.
 */
export class StateDetector {
  static readonly SLOTS = 3;
  readonly slots = StateDetector.SLOTS;
  private readonly timeouts: ReadonlyMap<string, number>;

  constructor(
    config: StuckDetectionConfig['state'],
    readonly offset = 0,
  ) {
    this.timeouts = new Map(Object.entries(config.timeoutsMs));
  }

  enter(state: Float64Array, base: number, now: number, name: string): void {
    const at = base + this.offset;
    state[at + ENTERED_AT] = now;
    state[at + TIMEOUT_MS] = this.timeouts.get(name) ?? 0;
    state[at + LATCHED] = 0;
  }

  check(state: Float64Array, base: number, now: number, name: string): Detection | null {
    const at = base + this.offset;
    const timeoutMs = state[at + TIMEOUT_MS]!;
    if (timeoutMs === 0 || state[at + LATCHED] === 1) return null;
    const enteredAt = state[at + ENTERED_AT]!;
    if (now - enteredAt <= timeoutMs) return null;
    state[at + LATCHED] = 1;
    return createDetection(
      'state',
      `stayed in state ${name} for ${Math.round(now - enteredAt)} ms (timeout ${timeoutMs} ms)`,
      enteredAt,
      now,
      { state: name, heldMs: now - enteredAt, timeoutMs },
    );
  }
}
