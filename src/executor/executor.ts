import { EventEmitter } from 'eventemitter3';
import type { Clock } from '../contracts/clock.js';
import type { FailureCode } from '../contracts/failure-codes.js';
import { Intent, type IntentInput } from '../contracts/intent.js';
import type { PlanInput } from '../contracts/plan.js';
import type { WorldPort } from '../contracts/world.js';
import { systemClock } from '../clock/system-clock.js';
import { type AgentState, AgentStateMachine } from '../recovery/agent-state-machine.js';
import { RecoveryLadder } from '../recovery/recovery-ladder.js';
import { StuckDetectionConfigSchema } from '../stuck/config.js';
import { HeartbeatWatcher } from '../stuck/heartbeat-watcher.js';
import type { RecoveryConfigInput } from '../recovery/config.js';
import { mulberry32 } from '../random.js';
import type { CapabilityRegistry } from '../registry/registry.js';
import type { StuckDetectionConfigInput } from '../stuck/config.js';
import { StuckFleet } from '../stuck/stuck-fleet.js';
import type { ValidationIssue } from '../validate/issue.js';
import { validatePlan } from '../validate/validate-plan.js';
import { EventStream } from './event-stream.js';
import type { ExecutorEvent, PlanResult } from './events.js';
import { IdempotencyStore } from './idempotency.js';
import { InterruptQueue } from './interrupts.js';
import { RunControl, type ReplaceAnswer } from './run-control.js';
import type { PlanStepInput } from '../contracts/plan-step.js';
import type { StepInvoker } from './invoker.js';
import { ExecutionMetrics } from './metrics.js';
import type { Planner } from './planner.js';
import { runPlan } from './plan-runner.js';
import { executeStep } from './step-executor.js';
import { callPlanner } from './planner-call.js';
import { errorText } from './user-code.js';
import { ExecutorPolicy, type ExecutorPolicyInput } from './policy.js';
import { SafetyMonitor } from './safety.js';
import { moveAgent, type RunScope } from './scope.js';

/** A rejected plan's detail names this many of its issues. */
const MAX_ISSUES_IN_DETAIL = 20;
export interface ExecutorOptions {
  registry: CapabilityRegistry;
  world: WorldPort;
  /** Runs one attempt of a capability (normally the behavior-tree runtime). */
  invoker: StepInvoker;
  clock?: Clock;
  /** One planner, or several ordered weakest to strongest for the escalation ladder. */
  planner?: Planner | readonly Planner[];
  policy?: ExecutorPolicyInput;
  stuck?: StuckDetectionConfigInput;
  /** The recovery ladder's strategies and budgets; its own retry rung stays off, as local retries come first (A3). */
  recovery?: RecoveryConfigInput;
  /** Share one store between executors so a key is never dispatched twice in the process. */
  idempotency?: IdempotencyStore;
}

export interface ExecutorEventMap {
  event: [ExecutorEvent];
}

/** What `run` takes: a plan, or an intent for the planner to plan. Checked at run time whatever its type says. */
export type RunInput = PlanInput | IntentInput;

/** A run in progress: iterate its events as they happen, and await its result. */
export interface ExecutionRun extends AsyncIterable<ExecutorEvent> {
  readonly result: Promise<PlanResult>;
  /** Pauses at the next safe point (never inside an atomic capability); false when already paused or ended. */
  pause(reason?: string): boolean;
  /** Goes on after a pause; false when not paused. */
  resume(): boolean;
  /** Ends the run: the running step ends `aborted`, and nothing after it starts. */
  cancel(reason?: string): boolean;
  /** Replaces the steps not yet started (validated as a plan is); the running step finishes first. */
  replaceRemaining(steps: readonly PlanStepInput[]): ReplaceAnswer;
}

export interface Executor {
  /** Every event of every run, for observers (loggers, journals, the HTTP stream) attached from outside. */
  readonly events: EventEmitter<ExecutorEventMap>;
  readonly policy: ExecutorPolicy;
  /**
   * A plan or an intent (for the planner to plan), validated here as from anyone: a bad one ends in a rejected run,
   * never a throw.
   */
  run(planOrIntent: RunInput, options?: { signal?: AbortSignal }): ExecutionRun;
  /** The stream's agent state: IDLE, PLANNING, EXECUTING, RECOVERING, PAUSED, COMPLETED or FAILED. */
  state(): AgentState;
  metrics(): { sla: ReturnType<ExecutionMetrics['sla']>; totals: ReturnType<ExecutionMetrics['summary']> };
}

/**
 * The executor a planner embeds: one stream per world (bot). Runs are queued so
 * exactly one step is active at a time (I1); each ends in one PlanResult.
 */
export function createExecutor(options: ExecutorOptions): Executor {
  const clock = options.clock ?? systemClock;
  const policy = ExecutorPolicy.parse(options.policy ?? {});
  const planners = options.planner === undefined ? [] : [options.planner].flat();
  const events = new EventEmitter<ExecutorEventMap>();
  const metrics = new ExecutionMetrics();
  const idempotency = options.idempotency ?? new IdempotencyStore();
  const stuck = StuckFleet.for({
    tickMs: 1000 / policy.tickHz,
    noActuator: { limitMs: policy.noActuatorMs },
    ...options.stuck,
  }).monitor(clock);
  const safety = new SafetyMonitor(policy.safety, options.world);
  const random = mulberry32(policy.seed);
  const agent = new AgentStateMachine({ clock });
  let emitZombie: (detail: string) => void = () => {};
  const heartbeat = new HeartbeatWatcher(
    clock,
    StuckDetectionConfigSchema.parse(options.stuck ?? {}).heartbeat,
    (detection) => emitZombie(detection.reason),
  );
  const ladder = new RecoveryLadder({
    clock,
    config: {
      ...options.recovery,
      strategies: {
        ...options.recovery?.strategies,
        retry: { ...options.recovery?.strategies?.retry, enabled: false },
      },
    },
  });
  let queue: Promise<unknown> = Promise.resolve();
  let activeRuns = 0;
  const interrupts = new InterruptQueue();
  const isUrgent = (input: unknown) => {
    const parsed = Intent.safeParse(input);
    return parsed.success && parsed.data.urgency >= policy.urgentIntent;
  };
  /**
   * Urgent > routine: the intent waits as an interrupt that the running step
   * takes at its next safe point (never inside an atomic capability); if the
   * running plan ends first, the intent simply runs next.
   */
  const preemptWith = (input: unknown, runNow: () => Promise<PlanResult>): Promise<PlanResult> =>
    new Promise((resolve, reject) => {
      const intent = Intent.parse(input);
      const interrupt = {
        signal: 'urgent_intent',
        detail: `intent ${intent.id} (urgency ${intent.urgency}): ${intent.goal}`,
        run: async () => {
          const running = runNow();
          running.then(resolve, reject);
          await running.catch(() => undefined);
        },
      };
      interrupts.push(interrupt);
      void queue.then(() => {
        if (interrupts.withdraw(interrupt)) runNow().then(resolve, reject);
      });
    });

  /** A new run starts from IDLE, whatever the last one ended in. */
  const settle = (scope: Parameters<typeof moveAgent>[0], to: 'PLANNING' | 'EXECUTING', reason: string) => {
    if (agent.state === 'COMPLETED' || agent.state === 'FAILED') moveAgent(scope, 'IDLE', 'new run');
    moveAgent(scope, to, reason);
  };

  async function execute(
    input: unknown,
    control: RunControl,
    emit: (event: ExecutorEvent) => void,
  ): Promise<PlanResult> {
    activeRuns++;
    try {
      return await executeOnce(input, control, emit);
    } catch (error) {
      // The contract holds even against a bug: the run ends with a result and a plan.ended, never a rejection.
      const planId = (input as { planId?: unknown } | null)?.planId;
      const result: PlanResult = {
        planId: typeof planId === 'string' ? planId : '(plan)',
        ok: false,
        code: 'runner_error',
        detail: `the executor failed: ${errorText(error)}`,
        steps: [],
        escalations: 0,
        repairs: 0,
        retries: 0,
        durationMs: 0,
      };
      moveAgent({ agent, emit, planId: result.planId, clock }, 'FAILED', result.detail!);
      emit({ type: 'plan.ended', at: clock.now(), planId: result.planId, result });
      return result;
    } finally {
      control.detach();
      activeRuns--;
    }
  }

  async function executeOnce(
    input: unknown,
    control: RunControl,
    emit: (event: ExecutorEvent) => void,
  ): Promise<PlanResult> {
    const signal = control.signal;
    const history: ExecutorEvent[] = [];
    const record = (event: ExecutorEvent) => {
      history.push(event);
      emit(event);
    };
    const rejected = (
      planId: string,
      code: FailureCode,
      detail: string,
      issues: ValidationIssue[] = [],
    ): PlanResult => {
      record({ type: 'plan.rejected', at: clock.now(), planId, code, issues });
      const result: PlanResult = {
        planId,
        ok: false,
        code,
        detail,
        steps: [],
        escalations: 0,
        repairs: 0,
        retries: 0,
        durationMs: 0,
      };
      // A run that got as far as planning ends FAILED; one refused at the door leaves the agent as it was.
      if (agent.state === 'PLANNING') moveAgent({ agent, emit: record, planId, clock }, 'FAILED', detail);
      record({ type: 'plan.ended', at: clock.now(), planId, result });
      return result;
    };

    let intent: Intent | undefined;
    let planInput = input;
    if (input && typeof input === 'object' && 'goal' in input) {
      const parsed = Intent.safeParse(input);
      if (!parsed.success)
        return rejected('(intent)', 'schema_violation', `invalid intent: ${parsed.error.issues[0]?.message}`);
      intent = parsed.data;
      if (!intent.safety.allowed)
        return rejected(
          intent.id,
          'intent_refused',
          `intent ${intent.id} refused: ${intent.safety.reason ?? 'safety.allowed is false'}`,
        );
      const planner = planners.find((p) => p.plan !== undefined);
      if (!planner?.plan)
        return rejected(
          intent.id,
          'schema_violation',
          'an intent needs a planner with plan(); pass `planner` to createExecutor or run a plan',
        );
      settle({ agent, emit: record, planId: intent.id, clock }, 'PLANNING', `planning intent ${intent.id}`);
      const planned = await callPlanner(clock, `planner ${planner.name}.plan`, policy.escalation.plannerTimeoutMs, () =>
        planner.plan!(intent!),
      );
      if (!planned.ok) return rejected(intent.id, 'planner_error', planned.detail);
      planInput = planned.value;
    }
    const report = validatePlan(planInput, options.registry);
    if (!report.ok) {
      const planId = (planInput as { planId?: unknown } | null)?.planId;
      // The first issues only: a huge plan can have a million, and this line is printed and journaled.
      const shown = report.issues.slice(0, MAX_ISSUES_IN_DETAIL).map((i) => `${i.where}: ${i.code}: ${i.message}`);
      const more = report.issues.length - shown.length;
      const detail = `${shown.join('; ')}${more > 0 ? `; … and ${more} more issues (plan.rejected lists them all)` : ''}`;
      return rejected(typeof planId === 'string' ? planId : '(plan)', report.issues[0]!.code, detail, report.issues);
    }
    metrics.recordPlan();
    record({
      type: 'plan.accepted',
      at: clock.now(),
      planId: report.plan.planId,
      intentId: report.plan.intentId,
      steps: report.steps.length,
      resolved: report.steps.map(({ step, spec, args }) => ({
        stepId: step.stepId,
        type: spec.name,
        version: spec.version,
        args,
        ...(step.idempotencyKey ? { idempotencyKey: step.idempotencyKey } : {}),
      })),
      warnings: report.warnings,
    });
    const scope: RunScope = {
      planId: report.plan.planId,
      registry: options.registry,
      world: options.world,
      clock,
      policy,
      invoker: options.invoker,
      metrics,
      idempotency,
      stuck,
      safety,
      ladder,
      agent,
      heartbeat,
      interrupts,
      random,
      signal,
      emit: record,
      runStep: (step) => executeStep(scope, step),
      dispatched: [],
      nestedIds: new Map(),
    };
    control.attach(scope);
    emitZombie = (detail) =>
      record({ type: 'incident', at: clock.now(), planId: scope.planId, kind: 'zombie', detail });
    ladder.beginTask();
    settle(scope, 'EXECUTING', `plan ${scope.planId} accepted`);
    const evidence = (stepId: string) =>
      history.filter(
        (e) => 'stepId' in e && e.stepId !== undefined && (e.stepId === stepId || e.stepId.startsWith(`${stepId}/`)),
      );
    const result = await runPlan(
      scope,
      { plan: report.plan, steps: report.steps, ...(intent ? { intent } : {}), planners },
      evidence,
      control,
    );
    moveAgent(
      scope,
      result.ok ? 'COMPLETED' : 'FAILED',
      result.ok ? 'every step verified' : `${result.code}: ${result.detail}`,
    );
    record({ type: 'plan.ended', at: clock.now(), planId: result.planId, result });
    return result;
  }

  return {
    events,
    policy,
    metrics: () => ({ sla: metrics.sla(), totals: metrics.summary() }),
    state: () => agent.state,
    run(planOrIntent, runOptions = {}) {
      const stream = new EventStream<ExecutorEvent>();
      const emit = (event: ExecutorEvent) => {
        stream.push(event);
        events.emit('event', event);
      };
      const control = new RunControl(runOptions.signal);
      const runNow = () => execute(planOrIntent, control, emit);
      const result = (
        activeRuns > 0 && isUrgent(planOrIntent) ? preemptWith(planOrIntent, runNow) : queue.then(runNow)
      ).finally(() => stream.close());
      queue = queue.then(() => result).catch(() => undefined);
      return {
        result,
        pause: (reason) => control.pause(reason),
        resume: () => control.resume(),
        cancel: (reason) => control.cancel(reason),
        replaceRemaining: (steps) => control.replaceRemaining(steps),
        [Symbol.asyncIterator]: () => stream[Symbol.asyncIterator](),
      };
    },
  };
}
