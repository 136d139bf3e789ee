import { type ExecutorEvent, failedRun, type PlanResult } from '../executor/events.js';
import type { ExecutionRun } from '../executor/executor.js';
import { errorText } from '../executor/user-code.js';
import { MAX_VIEW_STEPS, retryable, type RunFailure, type RunStatus, type RunView, type StepView } from './run-view.js';

export type RunListener = (event: ExecutorEvent) => void;

/** The failed step's evidence is drawn from this many of the run's last step events. */
const EVIDENCE_WINDOW = 50;

/**
 * One run this process started: its handle (pause, resume, cancel, replace), its events folded into a view as
 * they come, the listeners following it, and its result once it ends.
 */
export class TrackedRun {
  /** Settles with the run's result; never rejects (a run whose result rejects ends `runner_error`). */
  readonly ended: Promise<PlanResult>;
  private result: PlanResult | null = null;
  private status: RunStatus = 'queued';
  private cancelled = false;
  private readonly steps = new Map<string, StepView>();
  private readonly expects = new Map<string, unknown[]>();
  private readonly recent: ExecutorEvent[] = [];
  private readonly listeners = new Set<RunListener>();

  constructor(
    readonly planId: string,
    readonly bot: string,
    readonly run: ExecutionRun,
  ) {
    // Ended once the result is in and every event before it folded: a view taken then is complete.
    this.ended = Promise.all([run.result, this.consume()]).then(
      ([result]) => this.end(result),
      (error: unknown) => this.end(failedRun(planId, 'runner_error', `the run failed: ${errorText(error)}`)),
    );
  }

  get hasEnded(): boolean {
    return this.result !== null;
  }

  /** Calls `listener` with each of the run's events from now until it ends; returns how to stop. */
  follow(listener: RunListener): () => void {
    if (this.hasEnded) return () => undefined;
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  view(): RunView {
    const steps = [...this.steps.values()];
    return {
      planId: this.planId,
      bot: this.bot,
      source: 'process',
      status: this.currentStatus(),
      steps: steps.slice(0, MAX_VIEW_STEPS),
      stepsTotal: steps.length,
      failure: this.failure(),
      result: this.result,
    };
  }

  /** The result is the final word on every step it lists. */
  private end(result: PlanResult): PlanResult {
    this.result = result;
    for (const record of result.steps) this.applyOutcome(record.step.stepId, record.outcome);
    return result;
  }

  private currentStatus(): RunStatus {
    if (!this.result) return this.status;
    if (this.result.ok) return 'succeeded';
    if (this.status === 'rejected') return 'rejected';
    return this.cancelled ? 'cancelled' : 'failed';
  }

  private failure(): RunFailure | null {
    const result = this.result;
    if (!result || result.ok) return null;
    const failed = result.steps.filter((s) => !s.outcome.ok && s.parentStepId === undefined).at(-1);
    const stepId = failed?.step.stepId ?? null;
    const code = result.code ?? 'runner_error';
    return {
      code,
      retryable: retryable(code),
      detail: result.detail ?? '',
      stepId,
      unmet: failed && !failed.outcome.ok ? (failed.outcome.unmet ?? []) : [],
      expects: stepId ? (this.expects.get(stepId) ?? []) : [],
      evidence: stepId
        ? this.recent.filter(
            (e) =>
              'stepId' in e && e.stepId !== undefined && (e.stepId === stepId || e.stepId.startsWith(`${stepId}/`)),
          )
        : [],
    };
  }

  /** Reads the run's own event stream (its events only, in order) until it closes, after the run's result. */
  private async consume(): Promise<void> {
    for await (const event of this.run) {
      this.fold(event);
      for (const listener of this.listeners) {
        try {
          listener(event);
        } catch {
          // A follower's bug must not stop the others, nor the view.
        }
      }
    }
    this.listeners.clear();
  }

  private fold(event: ExecutorEvent): void {
    if ('stepId' in event) {
      this.recent.push(event);
      if (this.recent.length > EVIDENCE_WINDOW) this.recent.shift();
    }
    switch (event.type) {
      case 'plan.accepted':
        this.status = 'running';
        for (const step of event.resolved)
          this.steps.set(step.stepId, { stepId: step.stepId, verb: step.type, status: 'pending' });
        return;
      case 'plan.rejected':
        this.status = 'rejected';
        return;
      case 'plan.paused':
        this.status = 'paused';
        return;
      case 'plan.resumed':
        this.status = 'running';
        return;
      case 'plan.cancelled':
        this.cancelled = true;
        return;
      case 'plan.replaced':
        for (const [id, step] of this.steps)
          if (step.status === 'pending' && step.parentStepId === undefined) this.steps.delete(id);
        for (const step of event.steps)
          this.steps.set(step.stepId, { stepId: step.stepId, verb: step.type, status: 'pending' });
        return;
      case 'step.started': {
        const known = this.steps.get(event.stepId);
        this.steps.set(event.stepId, {
          ...(known ?? { stepId: event.stepId, verb: event.verb }),
          status: 'running',
          ...(event.parentStepId ? { parentStepId: event.parentStepId } : {}),
        });
        return;
      }
      case 'step.expects':
        this.expects.set(event.stepId, event.expectations);
        return;
      case 'step.ended':
        this.applyOutcome(event.stepId, event.outcome);
        return;
      default:
        return;
    }
  }

  private applyOutcome(stepId: string, outcome: PlanResult['steps'][number]['outcome']): void {
    const step = this.steps.get(stepId);
    if (!step) return;
    if (outcome.ok) this.steps.set(stepId, { stepId, verb: step.verb, status: 'succeeded', ...parent(step) });
    else
      this.steps.set(stepId, {
        stepId,
        verb: step.verb,
        status: 'failed',
        ...parent(step),
        code: outcome.code,
        detail: outcome.detail,
      });
  }
}

const parent = (step: StepView) => (step.parentStepId ? { parentStepId: step.parentStepId } : {});

/** The runs this process started: the live ones, which control acts on, and the last `keepEnded` that ended. */
export class RunBook {
  private readonly runs = new Map<string, TrackedRun>();

  constructor(private readonly keepEnded = 200) {}

  add(planId: string, bot: string, run: ExecutionRun): TrackedRun {
    const tracked = new TrackedRun(planId, bot, run);
    // A plan run again is the newest entry, not the oldest.
    this.runs.delete(planId);
    this.runs.set(planId, tracked);
    void tracked.ended.then(() => this.prune());
    return tracked;
  }

  /** The run of this plan this process started, live or recently ended. */
  get(planId: string): TrackedRun | undefined {
    return this.runs.get(planId);
  }

  /** The run of this plan under way here, if any: what pause, resume, cancel and replace act on. */
  live(planId: string): TrackedRun | undefined {
    const tracked = this.runs.get(planId);
    return tracked && !tracked.hasEnded ? tracked : undefined;
  }

  private prune(): void {
    let ended = [...this.runs.values()].filter((r) => r.hasEnded).length;
    for (const [planId, run] of this.runs) {
      if (ended <= this.keepEnded) return;
      if (run.hasEnded) {
        this.runs.delete(planId);
        ended--;
      }
    }
  }
}
