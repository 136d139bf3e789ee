import type { PathStatus } from '../contracts/world.js';
import type { AnyCapabilitySpec } from '../registry/capability-spec.js';
import type { Detection } from '../stuck/detection.js';
import type { AttemptLimits, AttemptOutcome } from './invoker.js';
import { runFastPath } from './fast-path.js';
import type { Interrupt } from './interrupts.js';
import type { RunScope } from './scope.js';

export interface AttemptPlan {
  stepId: string;
  spec: AnyCapabilitySpec;
  args: unknown;
  deadlineAt: number;
  limits: AttemptLimits;
  /** Safety signals and urgent intents may cancel this attempt (never during a fast-path step itself). */
  preemptible: boolean;
  onFirstAction(command: string): void;
}

export interface SupervisedOutcome {
  outcome: AttemptOutcome;
  /** Set when a safety signal or an urgent intent took over; run it, then re-validate and resume the step. */
  preemptedBy?: Interrupt;
}

/**
 * Runs one attempt under the executor's own watch: the step deadline (I2), the
 * stuck detectors ticked at the policy's rate, safety preemption, world
 * disconnection and the run's cancel signal. Whatever trips first decides the
 * outcome and aborts the attempt's signal, so its actuators stop.
 */
export async function superviseAttempt(scope: RunScope, plan: AttemptPlan): Promise<SupervisedOutcome> {
  const { clock, world, stuck, policy } = scope;
  const controller = new AbortController();
  let verdict: AttemptOutcome | null = null;
  let preemptedBy: Interrupt | undefined;
  let pendingPreemption: Interrupt | undefined;
  let wakeSupervisor: () => void = () => {};
  const tripped = new Promise<void>((resolve) => (wakeSupervisor = resolve));

  const stop = (outcome: AttemptOutcome) => {
    if (verdict) return;
    verdict = outcome;
    // The runtime turns a FailureCode reason into its outcome's code.
    controller.abort(outcome.ok ? 'aborted' : outcome.code);
    wakeSupervisor();
  };

  const onCancel = () => stop({ ok: false, code: 'aborted', detail: 'the run was cancelled' });
  const onDetection = (detection: Detection | null): boolean => {
    if (!detection?.failureCode || verdict) return false;
    const { position } = detection;
    scope.emit({
      type: 'step.stuck',
      at: clock.now(),
      planId: scope.planId,
      stepId: plan.stepId,
      verb: plan.spec.name,
      detector: detection.type,
      code: detection.failureCode,
      reason: detection.reason,
      ...(position ? { position: { x: position.x, y: position.y, z: position.z } } : {}),
    });
    stop({ ok: false, code: detection.failureCode, detail: detection.reason });
    return true;
  };
  const onPath = (status: PathStatus) => void onDetection(stuck.pathStatus(status));
  const onDisconnect = (reason: string) =>
    stop({ ok: false, code: 'world_disconnected', detail: `the world disconnected: ${reason}` });
  const deadline = clock.setTimeout(
    () =>
      stop({
        ok: false,
        code: 'deadline_exceeded',
        detail: `step ${plan.stepId} passed its deadline`,
        limitMs: plan.deadlineAt,
      }),
    Math.max(0, plan.deadlineAt - clock.now()),
  );
  // A1 holds for every attempt, including one whose runner never reaches the tree runtime's own watchdogs.
  let firstAction = true;
  const ttfa = clock.setTimeout(() => {
    if (firstAction)
      stop({
        ok: false,
        code: 'ttfa_exceeded',
        detail: `no actuator command within ${plan.limits.ttfaMs} ms of dispatch`,
        limitMs: plan.limits.ttfaMs,
      });
  }, plan.limits.ttfaMs);
  const tickMs = 1000 / policy.tickHz;
  let ticker = clock.setTimeout(function tick() {
    scope.heartbeat.beat();
    if (onDetection(stuck.tick(world.position()))) return;
    const threat =
      plan.preemptible && !pendingPreemption
        ? nextInterrupt(scope, plan.stepId, plan.spec.engagesHostiles === true)
        : null;
    if (threat && plan.spec.atomic) pendingPreemption = threat;
    else if (threat) {
      preemptedBy = threat;
      return stop({ ok: false, code: 'preempted', detail: `preempted by ${threat.signal}: ${threat.detail}` });
    }
    ticker = clock.setTimeout(tick, tickMs);
  }, tickMs);

  scope.signal.addEventListener('abort', onCancel, { once: true });
  world.events.on('path', onPath);
  world.events.on('disconnected', onDisconnect);
  scope.heartbeat.start();
  stuck.beginStep({
    movement: plan.spec.moves === true,
    idles: plan.spec.idles === true,
    invocation: plan.stepId,
    invocationDeadlineMs: plan.deadlineAt - clock.now(),
  });
  if (scope.signal.aborted) onCancel();
  if (!world.isConnected()) onDisconnect('not connected');

  const invocation = scope.invoker
    .invoke({
      spec: plan.spec,
      args: plan.args,
      world,
      clock,
      signal: controller.signal,
      limits: plan.limits,
      onActuatorStart: (command) => {
        stuck.actuatorStarted();
        if (firstAction) {
          firstAction = false;
          plan.onFirstAction(command);
        }
      },
      onActuatorSettled: () => stuck.actuatorSettled(),
      onProgress: (done, total) => stuck.progress(done, total),
    })
    .then(
      (outcome) => outcome,
      (error: unknown): AttemptOutcome => ({
        ok: false,
        code: 'runner_error',
        detail: error instanceof Error ? error.message : String(error),
      }),
    );

  try {
    const first = await Promise.race([invocation, tripped.then(() => null)]);
    if (first && !verdict) {
      stuck.invocationSettled();
      stop(first);
    } else {
      // A cancelled attempt gets one tick to settle (its actuators stop), so a step still ends within its limit plus a
      // tick.
      await settleWithin(scope, invocation, tickMs);
    }
    if (!preemptedBy && pendingPreemption && verdict!.ok === true) preemptedBy = pendingPreemption;
    return { outcome: verdict!, ...(preemptedBy ? { preemptedBy } : {}) };
  } finally {
    clock.clearTimeout(deadline);
    clock.clearTimeout(ttfa);
    clock.clearTimeout(ticker);
    scope.heartbeat.stop();
    scope.signal.removeEventListener('abort', onCancel);
    world.events.off('path', onPath);
    world.events.off('disconnected', onDisconnect);
    stuck.endStep();
  }
}

/** Safety first (a fast-path capability), then urgent intents waiting in the stream. */
function nextInterrupt(scope: RunScope, stepId: string, fighting: boolean): Interrupt | null {
  const threat = scope.safety.check(scope.clock.now(), { ignoreHostiles: fighting });
  if (threat) return { signal: threat.signal, detail: threat.detail, run: () => runFastPath(scope, threat, stepId) };
  return scope.interrupts.take() ?? null;
}

/** Gives a cancelled invocation a bounded moment of clock time to settle. */
async function settleWithin(scope: RunScope, invocation: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<RunScope['clock']['setTimeout']> | undefined;
  const grace = new Promise<void>((resolve) => (timer = scope.clock.setTimeout(resolve, ms)));
  await Promise.race([invocation, grace]);
  if (timer) scope.clock.clearTimeout(timer);
}
