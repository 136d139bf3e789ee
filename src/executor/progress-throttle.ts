import type { Clock, TimerHandle } from '../contracts/clock.js';
import type { ProgressNote } from '../registry/capability-spec.js';

/** One progress report of a running step, as `step.progress` carries it. */
export interface ProgressReport {
  done: number;
  total?: number;
  unit: string;
  detail?: string;
}

/** What a report counts when its capability did not say. */
export const DEFAULT_PROGRESS_UNIT = 'units';

export function progressReport(
  done: number,
  total: number | undefined,
  note: ProgressNote | undefined,
): ProgressReport {
  return {
    done,
    ...(total !== undefined && !Number.isNaN(total) ? { total } : {}),
    unit: note?.unit ?? DEFAULT_PROGRESS_UNIT,
    ...(note?.detail !== undefined ? { detail: note.detail } : {}),
  };
}

const same = (a: ProgressReport | null, b: ProgressReport) =>
  a !== null && a.done === b.done && a.total === b.total && a.unit === b.unit && a.detail === b.detail;

/**
 * Passes one step's progress reports on at most `perSecond` a second of the clock, never one per tick: the first at
 * once, a later one when its slot comes (replaced meanwhile by any newer one, so the latest is what goes out), a
 * report equal to the last one sent not at all. `flush` sends what is still waiting at once: the attempt's end calls
 * it, so the last report always goes out, before the step's end.
 */
export class ProgressThrottle {
  private lastAt = Number.NEGATIVE_INFINITY;
  private lastSent: ProgressReport | null = null;
  private waiting: ProgressReport | null = null;
  private timer: TimerHandle | null = null;
  private readonly gapMs: number;

  constructor(
    private readonly clock: Clock,
    private readonly send: (report: ProgressReport) => void,
    perSecond: number,
  ) {
    this.gapMs = 1000 / perSecond;
  }

  report(report: ProgressReport): void {
    if (same(this.waiting ?? this.lastSent, report)) return;
    if (same(this.lastSent, report)) {
      // Back to what was sent last: nothing new to say.
      this.cancelTimer();
      this.waiting = null;
      return;
    }
    this.waiting = report;
    const due = this.lastAt + this.gapMs - this.clock.now();
    if (due <= 0) this.flush();
    else this.timer ??= this.clock.setTimeout(() => this.flush(), due);
  }

  /** The latest report, sent or still waiting; null before the first. */
  get last(): ProgressReport | null {
    return this.waiting ?? this.lastSent;
  }

  /** Sends the report still waiting, if any, now. */
  flush(): void {
    this.cancelTimer();
    const report = this.waiting;
    if (report === null) return;
    this.waiting = null;
    this.lastAt = this.clock.now();
    this.lastSent = report;
    this.send(report);
  }

  private cancelTimer(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }
}

/** A progress report in a few words: its own detail when it gave one ("12 blocks left"), else its count ("3/4 oak_log"). */
export function describeProgress(report: ProgressReport): string {
  if (report.detail !== undefined) return report.detail;
  return report.total === undefined ? `${report.done} ${report.unit}` : `${report.done}/${report.total} ${report.unit}`;
}
