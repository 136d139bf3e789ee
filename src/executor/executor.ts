import type { EventEmitter } from 'eventemitter3';
import { Intent, type IntentInput } from '../contracts/intent.js';
import type { PlanInput } from '../contracts/plan.js';
import type { PlanStepInput } from '../contracts/plan-step.js';
import type { AgentState } from '../recovery/agent-state-machine.js';
import { admit } from './admission.js';
import { RunDeaths } from './deaths.js';
import { EventStream } from './event-stream.js';
import { type ExecutorEvent, failedRun, type PlanResult } from './events.js';
import { ExecutionMetrics } from './metrics.js';
import type { RecoveryMetricsView } from '../recovery/recovery-metrics.js';
import { ExecutorPolicy } from './policy.js';
import { runPlan } from './plan-runner.js';
import { RunControl, type ReplaceAnswer } from './run-control.js';
import { beginRunAs, moveAgent, type RunScope } from './scope.js';
import { executeStep } from './step-executor.js';
import { type ExecutorEventMap, type ExecutorOptions, openStream, type Stream } from './stream.js';
import { errorText } from './user-code.js';

export type { ExecutorEventMap, ExecutorOptions } from './stream.js';

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
  /** A plan or an intent (for the planner to plan), validated here as from anyone: a bad one ends in a rejected run, never a throw. */
  run(planOrIntent: RunInput, options?: { signal?: AbortSignal }): ExecutionRun;
  /** The stream's agent state: IDLE, PLANNING, EXECUTING, RECOVERING, PAUSED, COMPLETED or FAILED. */
  state(): AgentState;
  /** Per-capability SLA, the run totals, and the recovery ladder's metrics (seed 001: triggers, successes, stages). */
  metrics(): {
    sla: ReturnType<ExecutionMetrics['sla']>;
    totals: ReturnType<ExecutionMetrics['summary']>;
    recovery: RecoveryMetricsView;
  };
}

/**
 * The executor a planner embeds: one stream per world (bot). Runs are queued so
 * exactly one step is active at a time (I1 in docs/contract.md); each ends in one PlanResult.
 */
export function createExecutor(options: ExecutorOptions): Executor {
  const stream = openStream(options);
  return {
    events: stream.events,
    policy: stream.policy,
    metrics: () => ({
      sla: stream.metrics.sla(),
      totals: stream.metrics.summary(),
      recovery: stream.ladder.metrics.view(),
    }),
    state: () => stream.agent.state,
    run: (planOrIntent, runOptions = {}) => startRun(stream, planOrIntent, runOptions.signal),
  };
}

/** Queues a run behind the stream's others (an urgent intent during a run preempts it instead) and hands out its controls. */
function startRun(stream: Stream, planOrIntent: RunInput, signal: AbortSignal | undefined): ExecutionRun {
  const events = new EventStream<ExecutorEvent>();
  const emit = (event: ExecutorEvent) => {
    events.push(event);
    stream.events.emit('event', event);
  };
  const control = new RunControl(signal);
  const runNow = () => execute(stream, planOrIntent, control, emit);
  const result = (
    stream.activeRuns > 0 && isUrgent(stream, planOrIntent)
      ? preemptWith(stream, planOrIntent, runNow)
      : stream.queue.then(runNow)
  ).finally(() => events.close());
  stream.queue = stream.queue.then(() => result).catch(() => undefined);
  return {
    result,
    pause: (reason) => control.pause(reason),
    resume: () => control.resume(),
    cancel: (reason) => control.cancel(reason),
    replaceRemaining: (steps) => control.replaceRemaining(steps),
    [Symbol.asyncIterator]: () => events[Symbol.asyncIterator](),
  };
}

function isUrgent(stream: Stream, input: unknown): boolean {
  const parsed = Intent.safeParse(input);
  return parsed.success && parsed.data.urgency >= stream.policy.urgentIntent;
}

/**
 * Urgent > routine: the intent waits as an interrupt that the running step
 * takes at its next safe point (never inside an atomic capability); if the
 * running plan ends first, the intent simply runs next.
 */
function preemptWith(stream: Stream, input: unknown, runNow: () => Promise<PlanResult>): Promise<PlanResult> {
  return new Promise((resolve, reject) => {
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
    stream.interrupts.push(interrupt);
    void stream.queue.then(() => {
      if (stream.interrupts.withdraw(interrupt)) runNow().then(resolve, reject);
    });
  });
}

/** One run to its one `plan.ended`: the contract holds even against a bug, which ends the run `runner_error`, never a rejection. */
async function execute(
  stream: Stream,
  input: unknown,
  control: RunControl,
  emit: (event: ExecutorEvent) => void,
): Promise<PlanResult> {
  stream.activeRuns++;
  try {
    return await executeOnce(stream, input, control, emit);
  } catch (error) {
    const planId = (input as { planId?: unknown } | null)?.planId;
    const result = failedRun(
      typeof planId === 'string' ? planId : '(plan)',
      'runner_error',
      `the executor failed: ${errorText(error)}`,
    );
    const { agent, clock } = stream;
    moveAgent({ agent, emit, planId: result.planId, clock }, 'FAILED', result.detail!);
    emit({ type: 'plan.ended', at: clock.now(), planId: result.planId, result });
    return result;
  } finally {
    control.detach();
    stream.activeRuns--;
  }
}

/** Admission (validation, planning an intent), then the plan's steps in the run's scope, then `plan.ended`. */
async function executeOnce(
  stream: Stream,
  input: unknown,
  control: RunControl,
  emit: (event: ExecutorEvent) => void,
): Promise<PlanResult> {
  const history: ExecutorEvent[] = [];
  const record = (event: ExecutorEvent) => {
    history.push(event);
    emit(event);
  };
  const admitted = await admit(stream, input, record);
  if (!admitted.ok) return admitted.result;
  const { report, intent } = admitted;
  const scope = openScope(stream, report.plan.planId, control.signal, record);
  control.attach(scope);
  stream.onZombie = (detail) =>
    record({ type: 'incident', at: stream.clock.now(), planId: scope.planId, kind: 'zombie', detail });
  stream.ladder.beginTask();
  beginRunAs(scope, 'EXECUTING', `plan ${scope.planId} accepted`);
  const plan = { plan: report.plan, steps: report.steps, ...(intent ? { intent } : {}), planners: stream.planners };
  const result = await runPlan(scope, plan, (stepId) => evidenceOf(history, stepId), control).finally(() =>
    scope.deaths.close(),
  );
  moveAgent(
    scope,
    result.ok ? 'COMPLETED' : 'FAILED',
    result.ok ? 'every step verified' : `${result.code}: ${result.detail}`,
  );
  record({ type: 'plan.ended', at: stream.clock.now(), planId: result.planId, result });
  return result;
}

/** What a running plan shares between its steps: the stream's parts, the run's signal and its events. */
function openScope(
  stream: Stream,
  planId: string,
  cancel: AbortSignal,
  emit: (event: ExecutorEvent) => void,
): RunScope {
  const { options } = stream;
  const halting = new AbortController();
  const scope: RunScope = {
    planId,
    registry: options.registry,
    world: options.world,
    clock: stream.clock,
    policy: stream.policy,
    invoker: options.invoker,
    metrics: stream.metrics,
    idempotency: stream.idempotency,
    stuck: stream.stuck,
    safety: stream.safety,
    ladder: stream.ladder,
    explorer: options.explorer,
    planners: stream.planners,
    agent: stream.agent,
    heartbeat: stream.heartbeat,
    interrupts: stream.interrupts,
    random: stream.random,
    signal: AbortSignal.any([cancel, halting.signal]),
    durability: options.durability,
    halted: null,
    halt(failure) {
      if (scope.halted) return;
      scope.halted = failure;
      halting.abort(failure.code);
    },
    emit,
    runStep: (step) => executeStep(scope, step),
    deaths: new RunDeaths(options.world, stream.clock),
    dispatched: [],
    nestedIds: new Map(),
  };
  return scope;
}

/** A failed step's evidence for the planner: its events, and its nested steps'. */
function evidenceOf(history: readonly ExecutorEvent[], stepId: string): ExecutorEvent[] {
  return history.filter(
    (e) => 'stepId' in e && e.stepId !== undefined && (e.stepId === stepId || e.stepId.startsWith(`${stepId}/`)),
  );
}
