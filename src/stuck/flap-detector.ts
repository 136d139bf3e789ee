import type { PathStatus, Vec3Like } from '../contracts/world.js';
import type { StuckDetectionConfig } from './config.js';
import { createDetection, round, type Detection } from './detection.js';

const ACTIVE = 0;
const LATCHED = 1;
/** 0: none yet, 1: reached, 2: stopped. */
const LAST_TERMINAL = 2;
const HAS_HEADING_ANCHOR = 3;
const HEADING_ANCHOR_X = 4;
const HEADING_ANCHOR_Z = 5;
const HAS_HEADING = 6;
const HEADING_X = 7;
const HEADING_Z = 8;
const RING_HEAD = 9;
const RING_COUNT = 10;
const RING = 11;
/** Each reversal is stored as time, x, z. */
const ENTRY = 3;
/** A heading change sharper than 120° counts as a reversal; corners of a path (90°) do not. */
const REVERSAL_COSINE = -0.5;

/**
 * Trips when the path flaps: more than `maxReversals` reversals within the
 * window without net horizontal displacement (turning points repeat). A
 * reversal is a switch between `reached` and `stopped` path events, or a
 * heading reversal (sharper than 120°) while moving.
 * The last `maxReversals + 1` reversals are kept in a fixed ring, so a tick
 * costs O(1) and allocates nothing. Re-arms once the window passes without a
 * reversal or the agent gets clear of where it tripped.
 */
export class FlapDetector {
  readonly slots: number;
  private readonly capacity: number;
  private readonly windowMs: number;
  private readonly minNetSquared: number;
  private readonly minNet: number;
  private readonly headingStepSquared: number;

  constructor(
    config: StuckDetectionConfig['flap'],
    readonly offset = 0,
  ) {
    this.capacity = config.maxReversals + 1;
    this.slots = RING + this.capacity * ENTRY;
    this.windowMs = config.windowMs;
    this.minNet = config.minNetDisplacementBlocks;
    this.minNetSquared = config.minNetDisplacementBlocks ** 2;
    this.headingStepSquared = config.headingStepBlocks ** 2;
  }

  activate(state: Float64Array, base: number): void {
    const at = base + this.offset;
    state[at + ACTIVE] = 1;
    this.clear(state, at);
  }

  deactivate(state: Float64Array, base: number): void {
    const at = base + this.offset;
    state[at + ACTIVE] = 0;
    this.clear(state, at);
  }

  /** Without a known position a reversal's displacement cannot be judged, so it is not counted. */
  pathStatus(
    state: Float64Array,
    base: number,
    now: number,
    status: PathStatus,
    position: Vec3Like | null,
  ): Detection | null {
    const at = base + this.offset;
    if (state[at + ACTIVE] !== 1 || position === null) return null;
    const terminal = status === 'reached' ? 1 : status === 'stopped' ? 2 : 0;
    if (terminal === 0) return null;
    const previous = state[at + LAST_TERMINAL]!;
    state[at + LAST_TERMINAL] = terminal;
    if (previous === 0 || previous === terminal) return null;
    return this.reversal(state, at, now, position, 'path');
  }

  sample(state: Float64Array, base: number, now: number, position: Vec3Like): Detection | null {
    const at = base + this.offset;
    if (state[at + ACTIVE] !== 1) return null;
    const x = position.x;
    const z = position.z;
    if (state[at + LATCHED] === 1) this.rearmIfClear(state, at, now, x, z);
    if (state[at + HAS_HEADING_ANCHOR] !== 1) {
      state[at + HAS_HEADING_ANCHOR] = 1;
      state[at + HEADING_ANCHOR_X] = x;
      state[at + HEADING_ANCHOR_Z] = z;
      return null;
    }
    const dx = x - state[at + HEADING_ANCHOR_X]!;
    const dz = z - state[at + HEADING_ANCHOR_Z]!;
    const stepSquared = dx * dx + dz * dz;
    if (stepSquared < this.headingStepSquared) return null;
    state[at + HEADING_ANCHOR_X] = x;
    state[at + HEADING_ANCHOR_Z] = z;
    const hadHeading = state[at + HAS_HEADING] === 1;
    const px = state[at + HEADING_X]!;
    const pz = state[at + HEADING_Z]!;
    state[at + HAS_HEADING] = 1;
    state[at + HEADING_X] = dx;
    state[at + HEADING_Z] = dz;
    if (!hadHeading) return null;
    const cosine = (dx * px + dz * pz) / Math.sqrt(stepSquared * (px * px + pz * pz));
    if (cosine >= REVERSAL_COSINE) return null;
    return this.reversal(state, at, now, position, 'heading');
  }

  private reversal(state: Float64Array, at: number, now: number, position: Vec3Like, kind: string): Detection | null {
    const x = position.x;
    const z = position.z;
    const head = state[at + RING_HEAD]!;
    const slot = at + RING + head * ENTRY;
    state[slot] = now;
    state[slot + 1] = x;
    state[slot + 2] = z;
    const nextHead = head + 1 === this.capacity ? 0 : head + 1;
    state[at + RING_HEAD] = nextHead;
    const count = Math.min(state[at + RING_COUNT]! + 1, this.capacity);
    state[at + RING_COUNT] = count;
    if (count < this.capacity || state[at + LATCHED] === 1) return null;
    const oldest = at + RING + nextHead * ENTRY;
    const since = state[oldest]!;
    if (now - since > this.windowMs) return null;
    const netSquared = this.driftSquared(state, at, nextHead);
    if (netSquared >= this.minNetSquared) return null;
    state[at + LATCHED] = 1;
    const net = Math.sqrt(netSquared);
    return createDetection(
      'flap',
      `${count} reversals (last: ${kind}) within ${now - since} ms with ${round(net)} blocks net displacement (limit: more than ${this.capacity - 1} within ${this.windowMs} ms, < ${this.minNet} blocks)`,
      since,
      now,
      {
        reversals: count,
        lastReversal: kind,
        withinMs: now - since,
        netDisplacementBlocks: round(net),
        windowMs: this.windowMs,
      },
      { x, y: position.y, z },
    );
  }

  /**
   * Net displacement of a flap: the largest distance between turning points two
   * reversals apart (the same side of an oscillation). Pacing between two spots
   * keeps it near zero however far apart they are; zig-zagging onwards grows it.
   */
  private driftSquared(state: Float64Array, at: number, oldestHead: number): number {
    const gap = this.capacity > 2 ? 2 : 1;
    let worst = 0;
    for (let k = gap; k < this.capacity; k++) {
      const a = at + RING + ((oldestHead + k) % this.capacity) * ENTRY;
      const b = at + RING + ((oldestHead + k - gap) % this.capacity) * ENTRY;
      const dx = state[a + 1]! - state[b + 1]!;
      const dz = state[a + 2]! - state[b + 2]!;
      const squared = dx * dx + dz * dz;
      if (squared > worst) worst = squared;
    }
    return worst;
  }

  private rearmIfClear(state: Float64Array, at: number, now: number, x: number, z: number): void {
    const newestHead = state[at + RING_HEAD]! === 0 ? this.capacity - 1 : state[at + RING_HEAD]! - 1;
    const newest = at + RING + newestHead * ENTRY;
    const dx = x - state[newest + 1]!;
    const dz = z - state[newest + 2]!;
    if (now - state[newest]! > this.windowMs || dx * dx + dz * dz >= this.minNetSquared) this.clear(state, at);
  }

  private clear(state: Float64Array, at: number): void {
    state[at + LATCHED] = 0;
    state[at + LAST_TERMINAL] = 0;
    state[at + HAS_HEADING_ANCHOR] = 0;
    state[at + HAS_HEADING] = 0;
    state[at + RING_HEAD] = 0;
    state[at + RING_COUNT] = 0;
  }
}
