import type { Clock, TimerHandle } from '../contracts/clock.js';
import { systemClock } from './system-clock.js';

/** How the probe samples the event loop. */
export interface LagProbeOptions {
  /** How often the probe asks to run while any timer is pending (ms). */
  probeEveryMs?: number;
  /** Lateness up to this much is the loop's ordinary jitter, not stolen time (ms). */
  toleranceMs?: number;
  /**
   * The most of the base clock's time that can be discounted in the long run (0 to 1): however late the loop stays,
   * the clock counts at least the rest, so a judge of limit `d` trips within `(d + burstMs) / (1 - share)` of wall time.
   */
  maxStolenShare?: number;
  /**
   * The budget's size (ms): what may be discounted beyond the share. It refills during a stall too, so a full budget
   * carries a single stall of `burstMs / (1 - share)` whole (a freeze, a blocked turn: 200 s by default).
   */
  burstMs?: number;
}

/** How many late probes the clock remembers, to tell a past moment's wall time (about 16 bytes each). */
const HISTORY_LIMIT = 10_000;

export const DEFAULT_LAG_PROBE = { probeEveryMs: 100, toleranceMs: 50, maxStolenShare: 0.95, burstMs: 10_000 } as const;

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
 * trips as before. The probe runs only while some timer is pending, and never holds the process open itself, so an idle
 * process neither wakes nor stays alive for it.
 *
 * What is discounted is bounded, so that a real hang on a loop that stays late still trips: a budget of `burstMs` of
 * stall, refilled at `maxStolenShare` of the base clock's time (a token bucket). A freeze or a blocked turn up to
 * `burstMs / (1 - maxStolenShare)` is discounted whole; a loop late for good has its steps slowed at most `1 / (1 - maxStolenShare)` times, never
 * stopped. A bound on `now()` rather than on each timer holds for the judges that compare `now()` (the stuck detectors)
 * as well as for those that wait on a timer.
 */
export class LagDiscountingClock implements Clock {
  private readonly probeEveryMs: number;
  private readonly toleranceMs: number;
  private readonly maxStolenShare: number;
  private readonly burstMs: number;
  private stolenBeforeProbe = 0;
  /** At each probe that found the loop late: this clock's time then, and all stolen up to it. Oldest first. */
  private history: { at: number; stolen: number }[] = [];
  /** Stall that may still be discounted, as of `budgetAt` on the base clock (ms). */
  private budget: number;
  private budgetAt: number;
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
    this.maxStolenShare = options.maxStolenShare ?? DEFAULT_LAG_PROBE.maxStolenShare;
    this.burstMs = options.burstMs ?? DEFAULT_LAG_PROBE.burstMs;
    if (!(this.maxStolenShare >= 0 && this.maxStolenShare < 1))
      throw new RangeError(`maxStolenShare is ${this.maxStolenShare}: give a share from 0 up to (not including) 1`);
    this.budget = this.burstMs;
    this.budgetAt = base.now();
  }

  now(): number {
    const baseNow = this.base.now();
    return baseNow - this.stolenAt(baseNow);
  }

  /** All the time stolen so far (ms). */
  stolenMs(): number {
    return this.stolenAt(this.base.now());
  }

  /**
   * The base clock's time at `at`, a moment of this clock: what was stolen before it is added back, to within a probe
   * period; never later than the true moment. Before the remembered probes, the moment itself (as if nothing was
   * stolen before it): earlier still, never later.
   */
  baseTimeOf(at: number): number {
    let low = 0;
    let high = this.history.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.history[mid]!.at <= at) low = mid + 1;
      else high = mid;
    }
    return at + (low === 0 ? 0 : this.history[low - 1]!.stolen);
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
    return this.stolenBeforeProbe + this.stallAt(baseNow).stolen;
  }

  /**
   * The armed probe's lateness past its tolerance, as far as the budget allows, and the budget left after it. The
   * budget refills while the stall goes on, so a stall of `o` takes `min(o, budget + share × o)`: a full budget carries
   * a stall of `burstMs / (1 - share)` whole, and past that a share of it is taken, so `now()` never goes back.
   */
  private stallAt(baseNow: number): { stolen: number; budgetLeft: number } {
    if (this.probeDueAt === null) return { stolen: 0, budgetLeft: this.budgetLeftAt(baseNow) };
    const lateFrom = this.probeDueAt + this.toleranceMs;
    const overdue = Math.max(0, baseNow - lateFrom);
    const available = this.budgetLeftAt(Math.min(baseNow, lateFrom)) + this.maxStolenShare * overdue;
    const stolen = Math.min(overdue, available);
    return { stolen, budgetLeft: available - stolen };
  }

  /** The budget refilled up to `baseNow` (before any stall of the armed probe), at most the burst. */
  private budgetLeftAt(baseNow: number): number {
    return Math.min(this.burstMs, this.budget + this.maxStolenShare * Math.max(0, baseNow - this.budgetAt));
  }

  private armProbe(): void {
    if (this.probeDueAt !== null) return;
    this.probeDueAt = this.base.now() + this.probeEveryMs;
    const handle = this.base.setTimeout(this.probe, this.probeEveryMs);
    // The probe must not keep a finished command alive for its last period: the timers it serves do, while pending.
    (handle as { timer?: { unref?: () => void } }).timer?.unref?.();
  }

  private remember(baseNow: number): void {
    if (this.history.length >= HISTORY_LIMIT) this.history = this.history.slice(HISTORY_LIMIT / 2);
    this.history.push({ at: baseNow - this.stolenBeforeProbe, stolen: this.stolenBeforeProbe });
  }

  private readonly probe = (): void => {
    const baseNow = this.base.now();
    const { stolen, budgetLeft } = this.stallAt(baseNow);
    this.budget = budgetLeft;
    this.budgetAt = baseNow;
    this.stolenBeforeProbe += stolen;
    this.probeDueAt = null;
    if (stolen > 0) this.remember(baseNow);
    // An idle clock stops probing: nothing is timed, so nothing can be charged for a stall.
    if (this.pending > 0) this.armProbe();
  };
}

/**
 * The most wall time a judge of `limitMs` on a lag-discounting clock can take to trip, however late the loop: over any
 * stretch of wall time T at most `burstMs + maxStolenShare × T` is discounted. What another process judges against a
 * step's limit in wall time (the health sweep's `hanging_attempt`) waits this long, lest load look like a hang.
 */
export function longestWallWaitMs(limitMs: number, options: LagProbeOptions = {}): number {
  const share = options.maxStolenShare ?? DEFAULT_LAG_PROBE.maxStolenShare;
  return (Math.max(0, limitMs) + (options.burstMs ?? DEFAULT_LAG_PROBE.burstMs)) / (1 - share);
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
