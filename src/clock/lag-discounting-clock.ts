import type { Clock, TimerHandle } from '../contracts/clock.js';
import { systemClock } from './system-clock.js';

/** How the probe samples the event loop. */
export interface LagProbeOptions {
  /** How often the probe asks to run while any timer is pending (ms). */
  probeEveryMs?: number;
  /** Lateness up to this much is the loop's ordinary jitter, not stolen time (ms). */
  toleranceMs?: number;
}

export const DEFAULT_LAG_PROBE = { probeEveryMs: 100, toleranceMs: 50 } as const;

/** A timer on discounted time: it waits on the base clock, and again for whatever was stolen meanwhile. */
class DiscountedTimer implements TimerHandle {
  base: TimerHandle | undefined;

  constructor(
    readonly id: number,
    readonly dueAt: number,
    readonly callback: () => void,
  ) {}
}

/**
 * The time a process actually had: the base clock's time less the time its event loop was starved (issue 34). A
 * recurring probe asks the base clock for `probeEveryMs`; whatever it waits past that, beyond `toleranceMs`, was
 * stolen from everything timed in the process (a loop seconds late, a process starved of CPU) and is not counted.
 * While the probe is overdue, the time past its due moment already counts as stolen, so a timer that fires in the same
 * late turn as the probe, before it, sees the stall too. The judges of a step (watchdogs, the stuck detectors, the
 * step's deadline) read this clock, so load slows a step down but never fails it; a real hang, with the loop healthy,
 * trips as before. The probe runs only while some timer is pending, so an idle process neither wakes nor stays alive
 * for it.
 */
export class LagDiscountingClock implements Clock {
  private readonly probeEveryMs: number;
  private readonly toleranceMs: number;
  private stolenBeforeProbe = 0;
  /** When the armed probe is due, on the base clock; null while no probe is armed. */
  private probeDueAt: number | null = null;
  private pending = 0;
  private nextId = 1;

  constructor(
    /** The wall-time clock beneath: what is judged by others (leases, heartbeats) runs on it, not on this one. */
    readonly base: Clock,
    options: LagProbeOptions = {},
  ) {
    this.probeEveryMs = options.probeEveryMs ?? DEFAULT_LAG_PROBE.probeEveryMs;
    this.toleranceMs = options.toleranceMs ?? DEFAULT_LAG_PROBE.toleranceMs;
  }

  now(): number {
    const baseNow = this.base.now();
    return baseNow - this.stolenAt(baseNow);
  }

  /** All the time stolen so far (ms). */
  stolenMs(): number {
    return this.stolenAt(this.base.now());
  }

  setTimeout(callback: () => void, delayMs: number): TimerHandle {
    const timer = new DiscountedTimer(this.nextId++, this.now() + Math.max(0, delayMs), callback);
    this.pending++;
    this.armProbe();
    this.wait(timer, delayMs);
    return timer;
  }

  clearTimeout(handle: TimerHandle): void {
    const timer = handle as DiscountedTimer;
    if (!timer.base) return;
    this.base.clearTimeout(timer.base);
    timer.base = undefined;
    this.pending--;
  }

  private wait(timer: DiscountedTimer, ms: number): void {
    timer.base = this.base.setTimeout(() => this.due(timer), Math.max(0, ms));
  }

  private due(timer: DiscountedTimer): void {
    const left = timer.dueAt - this.now();
    if (left > 0) return this.wait(timer, left);
    timer.base = undefined;
    this.pending--;
    timer.callback();
  }

  private stolenAt(baseNow: number): number {
    const overdue = this.probeDueAt === null ? 0 : baseNow - this.probeDueAt - this.toleranceMs;
    return this.stolenBeforeProbe + Math.max(0, overdue);
  }

  private armProbe(): void {
    if (this.probeDueAt !== null) return;
    this.probeDueAt = this.base.now() + this.probeEveryMs;
    this.base.setTimeout(this.probe, this.probeEveryMs);
  }

  private readonly probe = (): void => {
    this.stolenBeforeProbe = this.stolenAt(this.base.now());
    this.probeDueAt = null;
    // An idle clock stops probing: nothing is timed, so nothing can be charged for a stall.
    if (this.pending > 0) this.armProbe();
  };
}

/**
 * The wall-time clock beneath `clock`: the base of a lag-discounting clock, or the clock itself. A lease or a heartbeat
 * is judged by other processes in wall time, so its timer never waits out a stall a second time.
 */
export function wallClockOf(clock: Clock): Clock {
  return clock instanceof LagDiscountingClock ? clock.base : clock;
}

/**
 * The clock a process's bots act and are judged on (the commands' worlds and executors): the system clock less the
 * time this process's event loop was starved. One per process, since a stall steals from everything in it.
 */
export const stepClock = new LagDiscountingClock(systemClock);
