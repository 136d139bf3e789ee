import type { Clock } from '../../contracts/clock.js';

const TICKS_PER_DAY = 24_000;
const MS_PER_TICK = 50;

/** The sim world's time of day: set by a scenario, running on the clock when the daylight cycle is on. */
export class DayClock {
  private base: number;
  private since: number;

  constructor(
    private readonly clock: Clock,
    startTick: number,
    private readonly cycle: boolean,
  ) {
    this.base = startTick;
    this.since = clock.now();
  }

  /** Ticks into the day, 0 (sunrise) to 23999. */
  now(): number {
    const elapsed = this.cycle ? Math.floor((this.clock.now() - this.since) / MS_PER_TICK) : 0;
    return (((this.base + elapsed) % TICKS_PER_DAY) + TICKS_PER_DAY) % TICKS_PER_DAY;
  }

  set(tick: number): void {
    this.base = tick;
    this.since = this.clock.now();
  }
}
