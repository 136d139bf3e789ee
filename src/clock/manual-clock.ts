import type { Clock, TimerHandle } from '../contracts/clock.js';

interface PendingTimer {
  id: number;
  dueAt: number;
  callback: () => void;
}

/** Lets every pending promise callback run (a macrotask turn drains the microtask queue) before time moves on. */
function flushMicrotasks(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Virtual time for tests: nothing happens until `advance` moves the clock.
 * Timers fire in due order (ties in creation order), each at its own due time.
 */
export class ManualClock implements Clock {
  private current: number;
  private nextId = 1;
  private readonly timers = new Map<number, PendingTimer>();

  constructor(startAt = 0) {
    this.current = startAt;
  }

  now(): number {
    return this.current;
  }

  setTimeout(callback: () => void, delayMs: number): TimerHandle {
    const id = this.nextId++;
    this.timers.set(id, { id, dueAt: this.current + Math.max(0, delayMs), callback });
    return { id };
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers.delete(handle.id);
  }

  pendingTimers(): number {
    return this.timers.size;
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way. */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    await flushMicrotasks();
    for (let next = this.nextDue(target); next; next = this.nextDue(target)) {
      this.timers.delete(next.id);
      // A timer that fell due during a stall fires late: time does not go back to its due moment.
      this.current = Math.max(this.current, next.dueAt);
      next.callback();
      await flushMicrotasks();
    }
    this.current = target;
    await flushMicrotasks();
  }

  /**
   * A stalled event loop: time moves `ms` with nothing running, then every timer that fell due meanwhile fires at
   * once, late, in due order, each seeing the time after the stall.
   */
  async stall(ms: number): Promise<void> {
    await flushMicrotasks();
    this.current += ms;
    await this.advance(0);
  }

  /** Advances in `stepMs` increments until `done()` holds or `maxMs` has passed. */
  async advanceUntil(done: () => boolean, maxMs: number, stepMs = 10): Promise<boolean> {
    for (let waited = 0; waited < maxMs && !done(); waited += stepMs) await this.advance(stepMs);
    return done();
  }

  /**
   * Jumps from timer to timer until `done()` holds, no timer is pending, or
   * `maxMs` has passed: the fastest way to run a simulation to its end.
   */
  async runUntil(done: () => boolean, maxMs: number): Promise<boolean> {
    const limit = this.current + maxMs;
    await flushMicrotasks();
    while (!done()) {
      const next = this.nextDue(limit);
      if (!next) {
        await flushMicrotasks();
        break;
      }
      await this.advance(next.dueAt - this.current);
    }
    return done();
  }

  private nextDue(limit: number): PendingTimer | undefined {
    let earliest: PendingTimer | undefined;
    for (const timer of this.timers.values()) {
      if (timer.dueAt <= limit && (!earliest || timer.dueAt < earliest.dueAt)) earliest = timer;
    }
    return earliest;
  }
}
