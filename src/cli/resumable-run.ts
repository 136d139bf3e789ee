import type { Clock } from '../contracts/clock.js';
import { type ExecutorEvent, failedRun, type PlanResult, stepless } from '../executor/events.js';
import type { ExecutionRun, RunInput } from '../executor/executor.js';
import type { ReplaceAnswer } from '../executor/run-control.js';
import type { PlanStepInput } from '../contracts/plan-step.js';
import type { JournaledAssembly } from '../journal/journaled-executor.js';
import { PlanLease } from '../journal/lease.js';
import { remainingToRun } from '../journal/resume.js';
import type { CapabilityRegistry } from '../registry/registry.js';

/** A run that a server's rollback can send back to redo what it undid. */
export interface RedoableRun extends ExecutionRun {
  /** Stops the run under way to resume the plan (`why` names the step undone); false when it had already ended. */
  redo(why: string): boolean;
}

export interface ResumableDeps {
  assembly: JournaledAssembly;
  registry: CapabilityRegistry;
  /** What kind of process holds the plan's lease (`serve`, `mcp`). */
  kind: string;
  clock: Clock;
  bot: string;
  say: (line: string) => void;
}

type Plan = RunInput & { planId: string };
type RunOptions = NonNullable<Parameters<JournaledAssembly['run']>[1]>;

/**
 * A plan of `serve` or `mcp` that goes on after a server's rollback undid one of its steps, as a worker's does: `redo`
 * stops the run under way, and once its end is journaled the plan is resumed in this process under `run --resume`'s
 * rules (remainingToRun: what holds is not redone, what is gone is). Its caller holds one run throughout: its events
 * are each run's in turn (a stopped run's own cancel and end left out, since the plan goes on), its result the last
 * run's. It holds the plan's lease across them all, so that no other process takes the plan between two runs.
 */
export async function runResumable(plan: Plan, options: RunOptions, deps: ResumableDeps): Promise<RedoableRun> {
  const { assembly } = deps;
  let run: ResumableRun | null = null;
  const lease = await PlanLease.acquire(assembly.journal, plan.planId, {
    clock: deps.clock,
    kind: deps.kind,
    onLost: (by) => run?.cancel(`the plan's lease was taken over by ${by}`),
  });
  try {
    const first = await assembly.run(plan, { ...options, lease });
    run = new ResumableRun(plan.planId, first, lease, options.signal, deps);
    return run;
  } catch (error) {
    await lease.release();
    throw error;
  }
}

class ResumableRun implements RedoableRun {
  readonly result: Promise<PlanResult>;
  private current: ExecutionRun;
  /** Why the run under way was stopped to be resumed; null while it runs as asked. */
  private redoing: string | null = null;
  private cancelled = false;
  /** The runs stopped to be resumed: their own cancel and end are not the plan's. */
  private readonly stopped = new WeakSet<ExecutionRun>();
  /** Each run's successor, once known (null: it was the last). */
  private readonly successors = new Map<ExecutionRun, Promise<ExecutionRun | null>>();
  private settleNext: (next: ExecutionRun | null) => void = () => undefined;

  constructor(
    private readonly planId: string,
    private readonly first: ExecutionRun,
    private readonly lease: PlanLease,
    private readonly signal: AbortSignal | undefined,
    private readonly deps: ResumableDeps,
  ) {
    this.current = first;
    this.expectSuccessor(first);
    this.result = this.drive().finally(() => this.release());
  }

  redo(why: string): boolean {
    if (this.cancelled || this.redoing !== null) return false;
    this.redoing = why;
    this.stopped.add(this.current);
    if (this.current.cancel(`stopped to redo what the server's restart undid: ${why}`)) return true;
    this.redoing = null;
    this.stopped.delete(this.current);
    return false;
  }

  pause(reason?: string): boolean {
    return this.current.pause(reason);
  }

  resume(): boolean {
    return this.current.resume();
  }

  cancel(reason?: string): boolean {
    this.cancelled = true;
    return this.current.cancel(reason);
  }

  replaceRemaining(steps: readonly PlanStepInput[]): ReplaceAnswer {
    return this.current.replaceRemaining(steps);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<ExecutorEvent> {
    let run: ExecutionRun | null = this.first;
    while (run) {
      const stopped: ExecutionRun = run;
      for await (const event of stopped)
        if (!(this.stopped.has(stopped) && (event.type === 'plan.cancelled' || event.type === 'plan.ended')))
          yield event;
      run = await (this.successors.get(stopped) ?? Promise.resolve(null));
    }
  }

  /** Each run to its end; one stopped to redo is followed by the plan resumed, until a run ends as it ends. */
  private async drive(): Promise<PlanResult> {
    for (;;) {
      const run = this.current;
      const result = await run.result.catch((error: unknown) => {
        this.settleNext(null);
        throw error;
      });
      const why = this.redoing;
      if (why === null || this.cancelled || this.signal?.aborted) {
        this.settleNext(null);
        return result;
      }
      const resumed = await this.resumed(why).catch((error: unknown) => {
        this.settleNext(null);
        throw error;
      });
      if (!('result' in resumed)) {
        this.settleNext(null);
        return resumed;
      }
      this.redoing = null;
      this.current = resumed;
      // A cancel asked while the plan was being resumed found no run to end: it ends the resumed one.
      if (this.cancelled) resumed.cancel('cancelled while it was being resumed');
      this.settleNext(resumed);
      this.expectSuccessor(resumed);
    }
  }

  /** The plan resumed after its run was stopped: the run of what is left, or the plan's end when nothing is. */
  private async resumed(why: string): Promise<ExecutionRun | PlanResult> {
    const { assembly, registry, bot, say } = this.deps;
    const { planId } = this;
    // The stopped run's end must be durable before the plan is journaled interrupted, or it would land after it.
    await assembly.recorder.flush();
    await assembly.journal.setPlanStatus(planId, 'interrupted');
    say(`plan ${planId} on ${bot}: stopped to redo what the server's restart undid; resuming it`);
    const remaining = await remainingToRun(assembly.journal, planId, {
      registry,
      world: assembly.world,
      interruption: { code: 'interrupted', reason: `the server restarted and undid a step: ${why}` },
      say: (line) => say(`plan ${planId} on ${bot}: ${line}`),
    });
    if ('plan' in remaining)
      return assembly.run(remaining.plan, {
        resumed: true,
        lease: this.lease,
        ...(this.signal ? { signal: this.signal } : {}),
      });
    return remaining.ended === 'failed'
      ? failedRun(planId, 'retracted', remaining.why)
      : stepless(planId, remaining.ended === 'succeeded');
  }

  private expectSuccessor(run: ExecutionRun): void {
    this.successors.set(run, new Promise((resolve) => (this.settleNext = resolve)));
  }

  /** The lease goes once the last run's events are durable. */
  private async release(): Promise<void> {
    await this.deps.assembly.recorder.flush().catch(() => undefined);
    await this.lease.release().catch(() => undefined);
  }
}
