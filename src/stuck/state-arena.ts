import type { StuckDetectorSet } from './detector-set.js';

/**
 * One Float64Array holding many agents' detector state, so each agent costs
 * its slots and nothing else (no per-agent typed array or ArrayBuffer headers).
 * Freed blocks are reused.
 */
export class StuckStateArena {
  readonly state: Float64Array;
  private readonly slots: number;
  private readonly free: number[] = [];
  private used = 0;

  constructor(
    detectors: StuckDetectorSet,
    readonly capacity: number,
  ) {
    this.slots = detectors.slots;
    this.state = new Float64Array(detectors.slots * capacity);
  }

  get full(): boolean {
    return this.free.length === 0 && this.used === this.capacity;
  }

  /** A block for one agent, zeroed; throws when all `capacity` blocks are taken. */
  allocate(): { state: Float64Array; base: number } {
    const reused = this.free.pop();
    if (reused !== undefined) {
      this.state.fill(0, reused, reused + this.slots);
      return { state: this.state, base: reused };
    }
    if (this.used === this.capacity) {
      throw new RangeError(
        `StuckStateArena is full: all ${this.capacity} agent blocks are in use; release one or create the arena with a larger capacity`,
      );
    }
    const base = this.used * this.slots;
    this.used += 1;
    return { state: this.state, base };
  }

  release(block: { base: number }): void {
    this.free.push(block.base);
  }
}
