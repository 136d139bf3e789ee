import type { Clock, TimerHandle } from '../contracts/clock.js';
import type { WatchdogKind } from './watchdog-spec.js';

export type TripHandler = (watchdog: Watchdog, measuredMs: number) => void;

/**
 * One watchdog over a node (or the whole run). Once armed it keeps a single
 * clock timer at its current deadline; activity only moves timestamps, and a
 * timer that fires early re-arms for the new deadline, so stamping stays cheap.
 */
export class Watchdog {
  tripped = false;
  private stopped = false;
  private timer: TimerHandle | undefined;
  private startedAt: number;
  private firstActuationAt: number | undefined;
  private lastActivityAt: number;
  private lastChangeAt: number;
  private inFlight = 0;

  constructor(
    readonly kind: WatchdogKind,
    readonly limitMs: number,
    readonly nodePath: string,
    private readonly clock: Clock,
    private readonly onTrip: TripHandler,
  ) {
    this.startedAt = this.lastActivityAt = this.lastChangeAt = clock.now();
  }

  actuationStarted(at: number): void {
    this.firstActuationAt ??= at;
    this.lastActivityAt = at;
    this.inFlight++;
    if (this.kind === 'ttfa') this.disarm();
  }

  actuationEnded(at: number): void {
    this.lastActivityAt = at;
    this.inFlight--;
    if (this.inFlight === 0) this.arm();
  }

  stateChanged(at: number): void {
    this.lastChangeAt = at;
  }

  /** Whether a restart would lose track of a command: stamps of an in-flight one still arrive here. */
  get idle(): boolean {
    return this.inFlight === 0;
  }

  /** Starts watching afresh, as a new watchdog would; reusing one keeps node entries allocation-free. */
  restart(): void {
    this.disarm();
    this.stopped = false;
    this.tripped = false;
    this.firstActuationAt = undefined;
    this.startedAt = this.lastActivityAt = this.lastChangeAt = this.clock.now();
  }

  stop(): void {
    this.stopped = true;
    this.disarm();
  }

  private deadline(): number {
    switch (this.kind) {
      case 'ttfa':
        return this.firstActuationAt === undefined ? this.startedAt + this.limitMs : Infinity;
      case 'noActuator':
        // A command in flight (a long goto) is activity; a hung one is maxStateDuration's job.
        return this.inFlight > 0 ? Infinity : this.lastActivityAt + this.limitMs;
      case 'maxStateDuration':
        return this.lastChangeAt + this.limitMs;
    }
  }

  private measured(now: number): number {
    switch (this.kind) {
      case 'ttfa':
        return now - this.startedAt;
      case 'noActuator':
        return now - this.lastActivityAt;
      case 'maxStateDuration':
        return now - this.lastChangeAt;
    }
  }

  /** Schedules the trip check at the current deadline. Deadlines count from construction, so arming late is exact. */
  arm(): void {
    if (this.timer || this.stopped || this.tripped) return;
    const deadline = this.deadline();
    if (deadline === Infinity) return;
    this.timer = this.clock.setTimeout(() => this.fire(), Math.max(0, deadline - this.clock.now()));
  }

  private disarm(): void {
    if (this.timer) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private fire(): void {
    this.timer = undefined;
    if (this.stopped || this.tripped) return;
    const now = this.clock.now();
    if (now >= this.deadline()) {
      this.tripped = true;
      this.onTrip(this, this.measured(now));
    } else {
      this.arm();
    }
  }
}
