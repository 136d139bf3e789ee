import type { Clock, TimerHandle } from '../contracts/clock.js';
import type { ExecutorEvent } from '../executor/events.js';

/** At most this many progress notifications a second per call: enough to watch, few enough not to flood a client. */
export const PROGRESS_PER_SECOND = 4;

export type SendProgress = (progress: { progress: number; message: string }) => Promise<void>;

/** What a step event says to someone waiting on the call; null for events not worth a line. */
export function progressMessage(event: ExecutorEvent): string | null {
  switch (event.type) {
    case 'plan.accepted':
      return `plan ${event.planId} accepted: ${event.resolved.map((s) => s.stepId).join(' → ')}`;
    case 'step.started':
      return `${event.stepId} (${event.verb}) started`;
    case 'step.retry':
      return `${event.stepId}: retry ${event.attempt} after ${event.code}: ${event.detail}`;
    case 'step.repair':
      return `${event.stepId}: repair ${event.strategy} after ${event.code}`;
    case 'step.subgoal':
      return `${event.stepId}: ${event.reason}; sub-goals ${event.subgoalStepIds.join(', ')}`;
    case 'step.stuck':
      return `${event.stepId}: stuck (${event.code}): ${event.reason}`;
    case 'step.preempted':
      return `${event.stepId}: preempted by ${event.by}: ${event.reason}`;
    case 'step.ended':
      return event.outcome.ok
        ? `${event.stepId} (${event.verb}) ended ok, effects verified`
        : `${event.stepId} (${event.verb}) failed: ${event.outcome.code}: ${event.outcome.detail}`;
    case 'plan.escalated':
      return `escalating ${event.failedStepId} (${event.code}) to planner ${event.planner}`;
    case 'plan.paused':
      return `paused: ${event.reason}`;
    case 'plan.resumed':
      return 'resumed';
    case 'plan.cancelled':
      return `cancelled: ${event.reason}`;
    case 'plan.replaced':
      return `remaining steps replaced: ${event.steps.map((s) => s.stepId).join(', ') || 'none'}`;
    case 'safety.emergency':
      return `safety: ${event.signal}: ${event.detail}`;
    default:
      return null;
  }
}

/**
 * Sends a call's step events as progress notifications, at most `perSecond` a second on the clock. An event that
 * comes too soon waits for the next slot, replaced by any later one, so the latest state is always the one sent;
 * `close` sends what is still waiting (before the call's answer, after which the token means nothing).
 */
export class ProgressReporter {
  private sent = 0;
  private lastAt = Number.NEGATIVE_INFINITY;
  private waiting: string | null = null;
  private timer: TimerHandle | null = null;
  private closed = false;
  private readonly gapMs: number;

  constructor(
    private readonly send: SendProgress,
    private readonly clock: Clock,
    perSecond = PROGRESS_PER_SECOND,
  ) {
    this.gapMs = 1000 / perSecond;
  }

  readonly event = (event: ExecutorEvent): void => {
    const message = progressMessage(event);
    if (message === null || this.closed) return;
    this.waiting = message;
    const due = this.lastAt + this.gapMs - this.clock.now();
    if (due <= 0) void this.flush();
    else this.timer ??= this.clock.setTimeout(() => void this.flush(), due);
  };

  /** Sends what is waiting and stops: no notification leaves after this. */
  close(): Promise<void> {
    const last = this.flush();
    this.closed = true;
    return last;
  }

  private flush(): Promise<void> {
    if (this.timer) this.clock.clearTimeout(this.timer);
    this.timer = null;
    const message = this.waiting;
    if (message === null || this.closed) return Promise.resolve();
    this.waiting = null;
    this.lastAt = this.clock.now();
    // A client that went away cannot be told; the run goes on regardless.
    return this.send({ progress: ++this.sent, message }).catch(() => undefined);
  }
}
