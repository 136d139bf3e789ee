import type { PlanStepInput } from '../contracts/plan-step.js';
import { issueAt, type ValidationIssue } from '../validate/issue.js';
import { validatePlan, type ResolvedStep } from '../validate/validate-plan.js';
import type { Interrupt } from './interrupts.js';
import { moveAgent, type RunScope } from './scope.js';

/** What `replaceRemaining` answers: the steps were taken (to run after the current step), or why not. */
export type ReplaceAnswer = { ok: true; steps: number } | { ok: false; issues: ValidationIssue[] };

/**
 * An operator's hold on one running plan: pause, resume, cancel, and replace
 * the steps not yet started. A pause takes effect where the safety fast path
 * would (never inside an atomic capability): the running step is preempted and
 * resumes, re-checked, after `resume()`; between steps, the next one waits.
 * Each change is an event, so the journal and every observer see it.
 */
export class RunControl {
  private readonly aborter = new AbortController();
  private scope: RunScope | null = null;
  private paused: { reason: string; release: () => void; gate: Promise<void>; interrupt: Interrupt } | null = null;
  private replacement: ResolvedStep[] | null = null;
  private ended = false;
  /** The plan's own steps handed out so far: a replacement may not reuse their ids. */
  private readonly started = new Set<string>();

  constructor(private readonly callerSignal?: AbortSignal) {}

  /** Cancels the run: the caller's signal or `cancel()`. */
  get signal(): AbortSignal {
    return this.callerSignal ? AbortSignal.any([this.callerSignal, this.aborter.signal]) : this.aborter.signal;
  }

  /** @internal The run's scope, once its plan is accepted. */
  attach(scope: RunScope): void {
    this.scope = scope;
    if (this.paused) scope.interrupts.push(this.paused.interrupt);
  }

  /** @internal The run ended: a pause nobody took is withdrawn, and later calls change nothing. */
  detach(): void {
    this.ended = true;
    if (this.paused) {
      this.scope?.interrupts.withdraw(this.paused.interrupt);
      this.paused.release();
      this.paused = null;
    }
  }

  /** Asks the run to pause; false when it is already paused or has ended. */
  pause(reason = 'paused by the operator'): boolean {
    if (this.ended || this.paused || this.aborter.signal.aborted) return false;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const interrupt: Interrupt = { signal: 'pause', detail: reason, run: () => this.hold() };
    this.paused = { reason, release, gate, interrupt };
    this.scope?.interrupts.push(interrupt);
    return true;
  }

  /** Lets a paused run go on; false when it was not paused. */
  resume(): boolean {
    const paused = this.paused;
    if (!paused) return false;
    this.paused = null;
    // A pause the running step never took (the run was between steps) is not waiting in the queue any more.
    this.scope?.interrupts.withdraw(paused.interrupt);
    paused.release();
    return true;
  }

  /** Ends the run: the running step is cancelled and ends `aborted`, and no further step starts. */
  cancel(reason = 'cancelled by the operator'): boolean {
    if (this.ended || this.aborter.signal.aborted) return false;
    this.scope?.emit({ type: 'plan.cancelled', at: this.scope.clock.now(), planId: this.scope.planId, reason });
    this.aborter.abort(reason);
    this.resume();
    return true;
  }

  /**
   * Replaces the steps not yet started with `steps`, checked as a plan is
   * (verbs, arguments, ids unused in this run); the running step finishes first.
   */
  replaceRemaining(steps: readonly PlanStepInput[]): ReplaceAnswer {
    const scope = this.scope;
    if (this.ended || !scope)
      return refused(
        this.ended
          ? 'the run has ended: nothing is left to replace'
          : 'the run has not accepted its plan yet; try again once it runs',
      );
    // No steps: the plan ends after the running step.
    const report =
      steps.length === 0
        ? { ok: true as const, steps: [] }
        : validatePlan({ planId: scope.planId, intentId: 'replacement', steps }, scope.registry);
    if (!report.ok) return { ok: false, issues: report.issues };
    const ran = new Set([...this.started, ...scope.dispatched.map((r) => r.step.stepId)]);
    const reused = report.steps.filter((s) => ran.has(s.step.stepId)).map((s) => s.step.stepId);
    if (reused.length > 0)
      return refused(`step ids already run in this plan: ${reused.join(', ')}; give replacement steps new stepIds`);
    this.replacement = report.steps;
    return { ok: true, steps: report.steps.length };
  }

  /** @internal Between steps: applies a replacement, waits while paused, then takes the next step off the queue. */
  async nextStep(queue: ResolvedStep[], lastStepId: string | null): Promise<ResolvedStep | undefined> {
    if (this.replacement && this.scope) {
      const steps = this.replacement;
      this.replacement = null;
      queue.splice(0, queue.length, ...steps);
      this.scope.emit({
        type: 'plan.replaced',
        at: this.scope.clock.now(),
        planId: this.scope.planId,
        afterStepId: lastStepId,
        steps: steps.map((s) => s.step),
      });
    }
    if (this.paused && this.scope?.interrupts.withdraw(this.paused.interrupt)) await this.hold();
    const next = queue.shift();
    if (next) this.started.add(next.step.stepId);
    return next;
  }

  /** Holds the run while paused, as the agent's PAUSED state, with events at both ends. */
  private async hold(): Promise<void> {
    const scope = this.scope;
    const paused = this.paused;
    if (!scope || !paused) return;
    scope.emit({ type: 'plan.paused', at: scope.clock.now(), planId: scope.planId, reason: paused.reason });
    const was = scope.agent.state;
    moveAgent(scope, 'PAUSED', paused.reason);
    await paused.gate;
    scope.emit({ type: 'plan.resumed', at: scope.clock.now(), planId: scope.planId, cancelled: scope.signal.aborted });
    if (was === 'EXECUTING' || was === 'RECOVERING') moveAgent(scope, 'EXECUTING', 'resumed by the operator');
  }
}

function refused(message: string): ReplaceAnswer {
  return { ok: false, issues: [issueAt('schema_violation', ['steps'], message)] };
}
