import type { Clock } from '../contracts/clock.js';
import type { WorldPort } from '../contracts/world.js';
import { systemClock } from '../clock/system-clock.js';
import { assembleExecutor, type AssembleOptions, type Assembly } from '../executor/assemble.js';
import { ShadowRuns, type ShadowOptions } from '../executor/shadow.js';
import { captureView, type CapturedView } from '../foresight/view.js';
import { runInFork } from '../foresight/fork-pool.js';
import { applyPromotions } from '../registry/canary-sla.js';
import type { ExecutionRun, RunInput } from '../executor/executor.js';
import { mergeHooks } from '../runtime/hooks.js';
import { traceActions } from './action-trace.js';
import { runHealthCheck, type HealthReport } from './health-check.js';
import type { HealthConfigInput } from './health-config.js';
import { JournalIdempotencyLedger } from './idempotency-ledger.js';
import { journalPlanners } from './journaled-planner.js';
import type { Journal } from './journal.js';
import { PlanLease } from './lease.js';
import { PlanConflictError } from './plan-conflict.js';
import { JournalRecorder } from './recorder.js';
import type { Fence } from './rows.js';
import { JournalRunner } from './runner.js';
import { validatePlan } from '../validate/validate-plan.js';
import { rejectedPlanSummary } from './rejected-summary.js';

export { PlanConflictError } from './plan-conflict.js';

export interface JournaledOptions extends Omit<AssembleOptions, 'idempotency' | 'world' | 'clock'> {
  journal: Journal;
  world: WorldPort;
  clock?: Clock;
  /** What kind of process runs (shown by health checks and `verbtree runs`). */
  kind: string;
  health?: HealthConfigInput;
  beatEveryMs?: number;
  /**
   * Which world the executor acts in, with what identifies it (a scenario's hash, a world folder, a host):
   * journaled with every plan this assembly starts, so a resume can tell whether it is in the same world.
   */
  worldDescriptor?: unknown;
  /** Lease timing (tests); see PlanLease. */
  lease?: { renewEveryMs?: number; staleAfterMs?: number };
  /**
   * A fleet worker's bot lease: every write that matters holds only while the lease carries its epoch. It also stands
   * for the plan lease: the bot's holder alone runs the bot's plans, so a run takes no plan lease of its own.
   */
  fence?: Fence;
  /**
   * The process's runner, when it assembles many executors (a fleet worker: one per bot it holds): runs are journaled
   * under it, and the assembly neither registers nor stops a runner of its own.
   */
  runner?: JournalRunner;
  /**
   * Shadow runs of the registry's canaries (src/executor/shadow.ts), each recorded in the journal: by default, when
   * the registry has a canary, views of `DEFAULT_SHADOW_VIEW` run on foresight's shared fork pool; false: none.
   */
  shadows?: false | Pick<ShadowOptions<CapturedView>, 'capture' | 'runFork' | 'maxInFlight'>;
}

/** What a shadow run captures around the bot: small, as the capture reads it on the bot's own thread. */
export const DEFAULT_SHADOW_VIEW = { radius: 8, height: 4 } as const;

export interface JournaledAssembly extends Assembly {
  /** The canaries' shadow runs, when the registry has a canary (and `shadows` is not false). */
  shadows?: ShadowRuns<CapturedView>;
  journal: Journal;
  recorder: JournalRecorder;
  /** The executor's idempotency ledger, kept in the journal. */
  ledger: JournalIdempotencyLedger;
  process: JournalRunner;
  /** The health check this runner ran on the journal before taking work: what it found of earlier crashes. */
  startup: HealthReport;
  /** The world as the executor sees it (actions traced into the journal). */
  world: WorldPort;
  /**
   * Takes the plan's lease (or uses the one given, held for this plan), journals the plan (or intent), then
   * hands it to the executor. Rejects with a PlanConflictError when another process holds the plan, or a fresh run
   * would restart a plan the journal holds unfinished. A lease taken here is released when the run ends; one
   * lost to a takeover cancels the run. `claimed`: the plan came from its bot's queue (journaled running, never run).
   */
  run(
    input: RunInput,
    options?: { resumed?: boolean; restart?: boolean; claimed?: boolean; lease?: PlanLease; signal?: AbortSignal },
  ): Promise<ExecutionRun>;
  close(): Promise<void>;
}

function isPlanLike(input: unknown): input is {
  planId: string;
  intentId: string;
  steps: { stepId: string; type: string; args?: Record<string, unknown>; idempotencyKey?: string }[];
} {
  if (!input || typeof input !== 'object') return false;
  const candidate = input as Record<string, unknown>;
  return (
    typeof candidate.planId === 'string' &&
    typeof candidate.intentId === 'string' &&
    Array.isArray(candidate.steps) &&
    candidate.steps.every(
      (s) =>
        s &&
        typeof s === 'object' &&
        typeof (s as Record<string, unknown>).stepId === 'string' &&
        typeof (s as Record<string, unknown>).type === 'string',
    )
  );
}

/**
 * An executor whose every step is journaled: it first recovers what earlier,
 * crashed runners left behind (a health check), registers itself as a beating
 * runner, keeps idempotency keys in the journal's ledger, and records each event
 * and actuator command as it happens, durably before the step acts (the
 * recorder is the executor's `durability`). The executor itself knows nothing
 * of the journal: the journal listens to its events and wraps its world.
 */
export async function assembleJournaled(options: JournaledOptions): Promise<JournaledAssembly> {
  const { journal } = options;
  const clock = options.clock ?? systemClock;
  const shared = options.runner;
  const self =
    shared ??
    new JournalRunner(journal, {
      kind: options.kind,
      clock,
      ...(options.beatEveryMs ? { beatEveryMs: options.beatEveryMs } : {}),
    });
  const startup = await runHealthCheck(journal, {
    ...(options.health ? { config: options.health } : {}),
    selfRunnerId: self.id,
  });
  if (!shared) await self.start();
  const fence = options.fence ? { fence: options.fence } : {};
  const recorder = new JournalRecorder(journal, { runnerId: self.id, world: options.world, ...fence });
  const ledger = new JournalIdempotencyLedger(journal, { runnerId: self.id, ...fence });
  const world = traceActions(options.world, recorder);
  const executorOptions = {
    ...options,
    world,
    clock,
    hooks: mergeHooks(recorder.hooks, options.hooks),
    // The executor claims each key in the journal before the step starts, and completes or releases it at its end.
    idempotency: ledger,
    // The step executor awaits `durability.flush()` before an attempt's first actuator command and after
    // `step.ended`: a step never acts, and the next never starts, before the journal holds it.
    durability: recorder,
    ...(options.planner ? { planner: journalPlanners(options.planner, recorder) } : {}),
  };
  // Canaries promoted by `verbtree registry promote` act in every process that assembles on this journal.
  applyPromotions(options.registry, await journal.promotions());
  const assembly = await assembleExecutor(executorOptions);
  const detach = recorder.attach(assembly.executor);
  const shadows = shadowRuns(options, assembly, clock);
  const releasing = new Set<Promise<void>>();
  return {
    ...assembly,
    journal,
    recorder,
    ledger,
    process: self,
    startup,
    world,
    ...(shadows ? { shadows } : {}),
    async run(input, runOptions = {}) {
      if (!isPlanLike(input)) {
        if (input && typeof input === 'object' && 'goal' in input && typeof (input as { id?: unknown }).id === 'string')
          recorder.recordIntent(input);
        return assembly.executor.run(input, runOptions.signal ? { signal: runOptions.signal } : {});
      }
      const lost = new AbortController();
      const own =
        runOptions.lease || options.fence
          ? null
          : await PlanLease.acquire(journal, input.planId, {
              clock,
              kind: options.kind,
              ...options.lease,
              onLost: (by) => lost.abort(new Error(`the plan's lease was taken over by ${by}`)),
            });
      try {
        if (runOptions.lease && runOptions.lease.planId !== input.planId)
          throw new PlanConflictError(
            `the lease given is for plan "${runOptions.lease.planId}", not "${input.planId}"`,
          );
        // A restart (asked for, the lease held) runs an unfinished plan again from its first step, as a new run.
        if (!runOptions.resumed && !runOptions.restart && !runOptions.claimed)
          await refuseUnfinished(journal, input.planId);
        // A plan the executor will refuse is journaled as a capped summary, never in full: a rejected 100 MB plan wrote
        // 433 MB of rows.
        const checked = validatePlan(input, options.registry);
        await recorder.beginRun({
          planId: input.planId,
          intentId: input.intentId,
          steps: checked.ok ? input.steps : [],
          body: checked.ok ? input : rejectedPlanSummary(input, checked.issues),
          world: options.worldDescriptor,
          resumed: runOptions.resumed === true,
        });
      } catch (error) {
        await own?.release();
        throw error;
      }
      const signal = runOptions.signal ? AbortSignal.any([runOptions.signal, lost.signal]) : lost.signal;
      const run = assembly.executor.run(input, { signal });
      // The lease goes once the run's last events are durable, not merely emitted; `close` waits for it.
      if (own) {
        const released = run.result
          .catch(() => undefined)
          .then(() => recorder.flush().catch(() => undefined))
          .then(() => own.release())
          .catch(() => undefined)
          .finally(() => releasing.delete(released));
        releasing.add(released);
      }
      return run;
    },
    async close() {
      shadows?.detach();
      await shadows?.idle();
      detach();
      await assembly.runner.shutdown();
      await Promise.all(releasing);
      await recorder.flush().catch(() => undefined);
      if (!shared) await self.stop();
    },
  };
}

/** A fresh run must not silently restart a plan the journal holds as running or interrupted. */
export async function refuseUnfinished(journal: Journal, planId: string): Promise<void> {
  const row = await journal.plan(planId);
  if (row?.status === 'running' || row?.status === 'interrupted') {
    throw new PlanConflictError(
      `plan "${planId}" is ${row.status} in the journal; continue it with \`verbtree run --resume ${planId}\`, run it again from its first step with \`verbtree run --resume ${planId} --restart\`, or give the new plan another planId`,
    );
  }
}

/** The canaries' shadow runs on the real world (not the traced one: a capture only reads), kept in the journal. */
function shadowRuns(options: JournaledOptions, assembly: Assembly, clock: Clock): ShadowRuns<CapturedView> | undefined {
  if (options.shadows === false || options.registry.canaries().length === 0) return undefined;
  const { registry, journal } = options;
  return new ShadowRuns(assembly.executor, {
    registry,
    world: options.world,
    clock,
    capture: (world) => captureView(world, DEFAULT_SHADOW_VIEW),
    runFork: (view, job) => runInFork(view, job),
    ...options.shadows,
    record: (run) => journal.recordVersionRun(run),
    capabilityModules: registry.modules,
    ...(options.extraTreePaths ? { treePaths: [...options.extraTreePaths] } : {}),
  });
}
