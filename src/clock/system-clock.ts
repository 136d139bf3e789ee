import type { Clock, TimerHandle } from '../contracts/clock.js';

interface SystemTimerHandle extends TimerHandle {
  readonly timer: NodeJS.Timeout;
}

/** Wall-clock time (monotonic, from process start) and real timers. */
export class SystemClock implements Clock {
  private nextId = 1;

  now(): number {
    return performance.now();
  }

  setTimeout(callback: () => void, delayMs: number): TimerHandle {
    const handle: SystemTimerHandle = { id: this.nextId++, timer: setTimeout(callback, Math.max(0, delayMs)) };
    return handle;
  }

  clearTimeout(handle: TimerHandle): void {
    clearTimeout((handle as SystemTimerHandle).timer);
  }
}

export const systemClock: Clock = new SystemClock();
