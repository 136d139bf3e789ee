import type { Clock, TimerHandle } from '../contracts/clock.js';
import type { FailureCode } from '../contracts/failure-codes.js';
import type { ExecutorEvent } from '../executor/events.js';
import type { FailureContext, Planner, PlannerReply } from '../executor/planner.js';

/** How long a failure waits for the client's replace_remaining or cancel_run: far longer than a planner's 30 s. */
export const DEFAULT_ESCALATION_TIMEOUT_MS = 300_000;

/** A step that failed past local repair, held for the client to decide. */
export interface PendingEscalation {
  planId: string;
  stepId: string;
  verb: string;
  code: FailureCode;
  detail: string;
  unmet: string[];
  /** The failed step's events, from its dispatch to its end. */
  evidence: ExecutorEvent[];
  completedStepIds: string[];
  /** 1 for the plan's first escalation, 2 for the next, … (the executor's budget caps it). */
  rung: number;
  /** Set when the last replacement looked like plans that already failed. */
  nudge?: string;
  /**
   * Epoch ms, as the HTTP API shows it (`GET /api/runs/<planId>/escalation`): when it ends by itself, the plan with it
   * (`escalation_exhausted`). The hold's own timer runs on the clock, whose time (the system clock's: ms since the
   * process started) means nothing to a client.
   */
  deadlineAt: number;
}

interface Held {
  escalation: PendingEscalation;
  reply: (reply: PlannerReply) => void;
}

/**
 * The planner of `verbtree mcp --escalate-to-client`: a step that fails past local repair is held here (the plan
 * waits), the call waiting on the run is answered with the failure, and the plan goes on with the steps the
 * client sends (replace_remaining), ends when it cancels, or ends by itself after `timeoutMs`, saying so.
 */
export class ClientEscalations {
  private readonly held = new Map<string, Held>();
  private readonly waiters = new Map<string, Set<(escalation: PendingEscalation) => void>>();
  /** When each hold ends on the clock, for the time it has left. */
  private readonly endsAt = new WeakMap<PendingEscalation, number>();

  readonly planner: Planner = { name: 'client', onFailure: (context) => this.hold(context) };

  constructor(
    private readonly clock: Clock,
    readonly timeoutMs = DEFAULT_ESCALATION_TIMEOUT_MS,
  ) {}

  /** The executor's own limit on a planner call: past the desk's, so the desk's timeout is the one that speaks. */
  get plannerTimeoutMs(): number {
    return this.timeoutMs + 60_000;
  }

  /** The time (ms, on the clock) the hold of `escalation` has left before it ends by itself; 0 once it has. */
  leftMs(escalation: PendingEscalation): number {
    return Math.max(0, (this.endsAt.get(escalation) ?? 0) - this.clock.now());
  }

  pending(planId: string): PendingEscalation | undefined {
    return this.held.get(planId)?.escalation;
  }

  /** The plan's held escalation, now or when it comes; undefined if `signal` aborts first. */
  next(planId: string, signal: AbortSignal): Promise<PendingEscalation | undefined> {
    const now = this.pending(planId);
    if (now || signal.aborted) return Promise.resolve(now);
    return new Promise((resolve) => {
      const waiters = this.waiters.get(planId) ?? new Set();
      this.waiters.set(planId, waiters);
      const done = (escalation: PendingEscalation | undefined) => {
        waiters.delete(wake);
        if (waiters.size === 0) this.waiters.delete(planId);
        signal.removeEventListener('abort', abort);
        resolve(escalation);
      };
      const wake = (escalation: PendingEscalation) => done(escalation);
      const abort = () => done(undefined);
      waiters.add(wake);
      signal.addEventListener('abort', abort, { once: true });
    });
  }

  /** Answers the plan's held escalation; false when none is held. */
  answer(planId: string, reply: PlannerReply): boolean {
    const held = this.held.get(planId);
    if (!held) return false;
    held.reply(reply);
    return true;
  }

  /** Ends every held escalation (the server is stopping): each plan ends, saying why. */
  releaseAll(reason: string): void {
    for (const planId of [...this.held.keys()]) this.answer(planId, { giveUp: reason });
  }

  private hold(context: FailureContext): Promise<PlannerReply> {
    const planId = context.plan.planId;
    // A plan escalates one failure at a time; an older hold (never the case with one run per plan) is ended.
    this.answer(planId, { giveUp: 'a newer failure of the same plan replaced this one' });
    const escalation: PendingEscalation = {
      planId,
      stepId: context.failedStep.stepId,
      verb: context.failedStep.type,
      code: context.failure.code,
      detail: context.failure.detail,
      unmet: context.failure.unmet ?? [],
      evidence: context.evidence,
      completedStepIds: context.completedStepIds,
      rung: context.rung,
      ...(context.nudge ? { nudge: context.nudge } : {}),
      deadlineAt: Date.now() + this.timeoutMs,
    };
    this.endsAt.set(escalation, this.clock.now() + this.timeoutMs);
    return new Promise<PlannerReply>((resolve) => {
      let timer: TimerHandle | null = null;
      const reply = (answer: PlannerReply) => {
        if (this.held.get(planId)?.escalation !== escalation) return;
        this.held.delete(planId);
        if (timer) this.clock.clearTimeout(timer);
        resolve(answer);
      };
      this.held.set(planId, { escalation, reply });
      timer = this.clock.setTimeout(
        () =>
          reply({
            giveUp: `the client sent neither replace_remaining nor cancel_run within ${Math.round(this.timeoutMs / 1000)} s of the failure`,
          }),
        this.timeoutMs,
      );
      for (const wake of [...(this.waiters.get(planId) ?? [])]) wake(escalation);
    });
  }
}
