import type { Vec3Like } from '../contracts/world.js';
import type { StuckDetectionConfig } from './config.js';
import { createDetection, round, type Detection } from './detection.js';

const ACTIVE = 0;
const LATCHED = 1;
const HAS_ANCHOR = 2;
const ANCHOR_X = 3;
const ANCHOR_Y = 4;
const ANCHOR_Z = 5;
const SINCE = 6;
/** The step's last progress value (-Infinity before its first report): a rise is activity (see `progressed`). */
const LAST_PROGRESS = 7;

/**
 * Trips when a movement capability is active but the agent stayed within ε of
 * its anchor for longer than the threshold. Distance is measured from the
 * anchor, not the previous sample, so jitter never resets it and slow creep
 * eventually does. Once tripped it stays quiet until the agent moves (or is re-activated).
 * A capability that makes progress standing still (a fight: hits landed, the mob walking back in) reports it, and a
 * rising report counts as moving: the bot holds its ground by choice, so only its own measure of progress can say
 * whether it is stuck.
 *
 * Detectors keep no per-agent fields: an agent's state lives in a Float64Array
 * slice (`state`, starting at `base + offset`), so one detector serves every agent.
 */
export class PositionDetector {
  static readonly SLOTS = 8;
  readonly slots = PositionDetector.SLOTS;
  private readonly thresholdMs: number;
  private readonly epsilonSquared: number;
  private readonly epsilon: number;

  constructor(
    config: StuckDetectionConfig['position'],
    readonly offset = 0,
  ) {
    this.thresholdMs = config.thresholdMs;
    this.epsilon = config.epsilonBlocks;
    this.epsilonSquared = config.epsilonBlocks * config.epsilonBlocks;
  }

  /** A movement capability became active at `now`; the first sample gives the anchor position. */
  activate(state: Float64Array, base: number, now: number): void {
    const at = base + this.offset;
    state[at + ACTIVE] = 1;
    state[at + LATCHED] = 0;
    state[at + HAS_ANCHOR] = 0;
    state[at + SINCE] = now;
    state[at + LAST_PROGRESS] = -Infinity;
  }

  /**
   * The step reported its progress: a value above the last one (any first one) is activity, so the time without
   * moving starts over from here.
   */
  progressed(state: Float64Array, base: number, now: number, value: number): void {
    const at = base + this.offset;
    if (state[at + ACTIVE] !== 1) return;
    const last = state[at + LAST_PROGRESS]!;
    state[at + LAST_PROGRESS] = value;
    if (value <= last) return;
    state[at + HAS_ANCHOR] = 0;
    state[at + SINCE] = now;
    state[at + LATCHED] = 0;
  }

  deactivate(state: Float64Array, base: number): void {
    const at = base + this.offset;
    state[at + ACTIVE] = 0;
    state[at + LATCHED] = 0;
  }

  isActive(state: Float64Array, base: number): boolean {
    return state[base + this.offset + ACTIVE] === 1;
  }

  /** Takes the position object, not x/y/z numbers: passing doubles to a call that is not inlined boxes them. */
  sample(state: Float64Array, base: number, now: number, position: Vec3Like): Detection | null {
    const at = base + this.offset;
    if (state[at + ACTIVE] !== 1) return null;
    const x = position.x;
    const y = position.y;
    const z = position.z;
    if (state[at + HAS_ANCHOR] !== 1) {
      state[at + HAS_ANCHOR] = 1;
      this.anchor(state, at, x, y, z);
      return null;
    }
    const dx = x - state[at + ANCHOR_X]!;
    const dy = y - state[at + ANCHOR_Y]!;
    const dz = z - state[at + ANCHOR_Z]!;
    const movedSquared = dx * dx + dy * dy + dz * dz;
    if (movedSquared >= this.epsilonSquared) {
      this.anchor(state, at, x, y, z);
      state[at + SINCE] = now;
      state[at + LATCHED] = 0;
      return null;
    }
    const since = state[at + SINCE]!;
    if (state[at + LATCHED] === 1 || now - since <= this.thresholdMs) return null;
    state[at + LATCHED] = 1;
    const moved = Math.sqrt(movedSquared);
    return createDetection(
      'position',
      `moved ${round(moved)} blocks (< ${this.epsilon}) in ${Math.round(now - since)} ms while a movement capability was active (limit ${this.thresholdMs} ms)`,
      since,
      now,
      { movedBlocks: round(moved), epsilonBlocks: this.epsilon, heldMs: now - since, thresholdMs: this.thresholdMs },
      { x, y, z },
    );
  }

  private anchor(state: Float64Array, at: number, x: number, y: number, z: number): void {
    state[at + ANCHOR_X] = x;
    state[at + ANCHOR_Y] = y;
    state[at + ANCHOR_Z] = z;
  }
}
