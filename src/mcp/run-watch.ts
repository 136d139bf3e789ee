import { describeExpectation, type Expectation } from '../contracts/expectation.js';
import type { ExecutorEvent, PlanResult } from '../executor/events.js';
import type { VerifiedStep } from './results.js';

/** A run as the MCP server saw it go: who runs it, and the expectations of each step. */
interface WatchedRun {
  bot: string;
  expects: Map<string, Expectation[]>;
  ended: boolean;
}

export type RunChange = (change: { planId: string; bot: string; event: ExecutorEvent; ended: boolean }) => void;

/**
 * Every run started through this server's tools, shared by all its sessions: each run's events arrive here (the
 * operations' `onEvent`), so a result can name what each step was verified to do, and the resources a session
 * subscribed to hear of each change.
 */
export class RunWatch {
  private readonly runs = new Map<string, WatchedRun>();
  private readonly listeners = new Set<RunChange>();

  /** How many ended runs are remembered (their expectations), oldest forgotten first. */
  constructor(private readonly keepEnded = 200) {}

  /** The listener to pass as a run's `onEvent`. */
  watch(planId: string, bot: string): (event: ExecutorEvent) => void {
    const run: WatchedRun = { bot, expects: new Map(), ended: false };
    let registered = false;
    return (event) => {
      // Registered at its first event, so a start that was refused (a conflict with the run holding the plan) changes nothing.
      if (!registered) {
        registered = true;
        this.runs.delete(planId);
        this.runs.set(planId, run);
      }
      if (event.type === 'step.expects') run.expects.set(event.stepId, event.expectations);
      if (event.type === 'plan.ended') {
        run.ended = true;
        this.prune();
      }
      for (const listener of this.listeners) listener({ planId, bot, event, ended: run.ended });
    };
  }

  onChange(listener: RunChange): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The expectations a step of the run was given (its `step.expects`). */
  expectsOf(planId: string, stepId: string): Expectation[] {
    return this.runs.get(planId)?.expects.get(stepId) ?? [];
  }

  /** The runs under way, newest last. */
  live(): { planId: string; bot: string }[] {
    return [...this.runs].filter(([, run]) => !run.ended).map(([planId, run]) => ({ planId, bot: run.bot }));
  }

  /** What each succeeded step of a result was verified to have done, in the order the steps ended. */
  verified(result: PlanResult | null): VerifiedStep[] {
    if (!result) return [];
    const run = this.runs.get(result.planId);
    return result.steps
      .filter((record) => record.outcome.ok)
      .map((record) => {
        const expects = run?.expects.get(record.step.stepId) ?? [];
        return {
          stepId: record.step.stepId,
          verb: record.step.type,
          ...(record.parentStepId ? { parentStepId: record.parentStepId } : {}),
          verified: expects.map(describeExpectation),
          expects,
        };
      });
  }

  private prune(): void {
    let ended = [...this.runs.values()].filter((r) => r.ended).length;
    for (const [planId, run] of this.runs) {
      if (ended <= this.keepEnded) return;
      if (run.ended) {
        this.runs.delete(planId);
        ended--;
      }
    }
  }
}
