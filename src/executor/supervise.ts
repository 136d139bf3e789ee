import type { TreeRecovery } from './tree-recoveries.js';
import type { TimerHandle } from '../contracts/clock.js';
import type { SafetyOverride } from '../contracts/plan-step.js';
import type { PathStatus } from '../contracts/world.js';
import type { AnyCapabilitySpec } from '../registry/capability-spec.js';
import type { Detection } from '../stuck/detection.js';
import type { AttemptLimits, AttemptOutcome } from './invoker.js';
import { emergency, runFastPath } from './fast-path.js';
import { progressReport, type ProgressThrottle } from './progress-throttle.js';
import type { Interrupt } from './interrupts.js';
import { cancelledOutcome, type RunScope } from './scope.js';

export interface AttemptPlan {
  stepId: string;
  spec: AnyCapabilitySpec;
  args: unknown;
  deadlineAt: number;
  limits: AttemptLimits;
  /** Safety signals and urgent intents may cancel this attempt (never during a fast-path step itself). */
  preemptible: boolean;
  /** The plan's and the step's combat policy over the executor's. */
  combat?: SafetyOverride;
  onFirstAction(command: string): void;
  /** The tree's own retries and unstuck moves inside the attempt (see tree-recoveries.ts). */
  onTreeRecovery?: (recovery: TreeRecovery) => void;
  /** Where the capability's progress reports go on as `step.progress`, at a bounded rate. */
  progress: ProgressThrottle;
}

export interface SupervisedOutcome {
  outcome: AttemptOutcome;
  /** Set when a safety signal or an urgent intent took over; run it, then re-validate and resume the step. */
  preemptedBy?: Interrupt;
}

/**
 * Runs one attempt under the executor's own watch: the step deadline (I2 in docs/contract.md), the
 * stuck detectors ticked at the policy's rate, safety preemption, world
 * disconnection, the bot's death and the run's cancel signal. Whatever trips first decides the
 * outcome and aborts the attempt's signal, so its actuators stop.
 */
export async function superviseAttempt(scope: RunScope, plan: AttemptPlan): Promise<SupervisedOutcome> {
  const watch = new AttemptWatch(scope, plan);
  watch.initialise();
  try {
    return await watch.update();
  } finally {
    watch.terminate();
  }
}

/** The watch over one attempt, in py_trees' terms: `initialise` arms it, `update` runs the attempt, `terminate` disarms. */
class AttemptWatch {
  private readonly controller = new AbortController();
  private verdict: AttemptOutcome | null = null;
  private preemptedBy: Interrupt | undefined;
  /** A threat met during an atomic capability: it takes over once the transaction ends. */
  private pendingPreemption: Interrupt | undefined;
  private wake: () => void = () => {};
  private readonly tripped = new Promise<void>((resolve) => (this.wake = resolve));
  private awaitingFirstAction = true;
  /** Set once the watch is disarmed: a runner that ignored its abort reports nothing more for this step. */
  private disarmed = false;
  private readonly tickMs: number;
  private timers: { deadline: TimerHandle; ttfa: TimerHandle; ticker: TimerHandle } | null = null;

  constructor(
    private readonly scope: RunScope,
    private readonly plan: AttemptPlan,
  ) {
    this.tickMs = 1000 / scope.policy.tickHz;
  }

  /** Arms the deadline, the TTFA timer (A1 holds even for a runner that never reaches the tree's own watchdogs) and the supervision tick, and listens to the run's cancel, path events and disconnects. */
  initialise(): void {
    const { scope, plan } = this;
    const { clock, world, stuck } = scope;
    this.timers = {
      deadline: clock.setTimeout(() => this.stop(deadlinePassed(plan)), Math.max(0, plan.deadlineAt - clock.now())),
      ttfa: clock.setTimeout(() => {
        if (this.awaitingFirstAction) this.stop(noFirstAction(plan));
      }, plan.limits.ttfaMs),
      ticker: clock.setTimeout(this.tick, this.tickMs),
    };
    scope.signal.addEventListener('abort', this.onCancel, { once: true });
    world.events.on('path', this.onPath);
    world.events.on('disconnected', this.onDisconnect);
    world.events.on('died', this.onDied);
    scope.heartbeat.start();
    stuck.beginStep({
      movement: plan.spec.moves === true,
      idles: plan.spec.idles === true,
      invocation: plan.stepId,
      invocationDeadlineMs: plan.deadlineAt - clock.now(),
    });
    if (scope.signal.aborted) this.onCancel();
    if (!world.isConnected()) this.onDisconnect('not connected');
  }

  /** Invokes the attempt and waits for whatever ends it first: the runner's own outcome, or a trip. */
  async update(): Promise<SupervisedOutcome> {
    const invocation = this.invoke();
    const first = await Promise.race([invocation, this.tripped.then(() => null)]);
    if (first && !this.verdict) {
      this.scope.stuck.invocationSettled();
      this.stop(first);
    } else {
      // A cancelled attempt gets one tick to stop (its actuators stop), so a step still ends within its limit plus a tick.
      await graceToStop(this.scope, invocation, this.tickMs);
    }
    if (!this.preemptedBy && this.pendingPreemption && this.verdict!.ok) this.preemptedBy = this.pendingPreemption;
    return { outcome: this.verdict!, ...(this.preemptedBy ? { preemptedBy: this.preemptedBy } : {}) };
  }

  /** Disarms every timer and listener `initialise` set. */
  terminate(): void {
    const { clock, world, heartbeat, signal, stuck } = this.scope;
    this.disarmed = true;
    // The last report goes out before the attempt's outcome is judged, so before the step's end.
    this.plan.progress.flush();
    if (this.timers) {
      clock.clearTimeout(this.timers.deadline);
      clock.clearTimeout(this.timers.ttfa);
      clock.clearTimeout(this.timers.ticker);
    }
    heartbeat.stop();
    signal.removeEventListener('abort', this.onCancel);
    world.events.off('path', this.onPath);
    world.events.off('disconnected', this.onDisconnect);
    world.events.off('died', this.onDied);
    stuck.endStep();
  }

  private invoke(): Promise<AttemptOutcome> {
    const { scope, plan } = this;
    const { stuck } = scope;
    return scope.invoker
      .invoke({
        spec: plan.spec,
        args: plan.args,
        world: scope.world,
        clock: scope.clock,
        signal: this.controller.signal,
        limits: plan.limits,
        onActuatorStart: (command) => {
          stuck.actuatorStarted();
          if (!this.awaitingFirstAction) return;
          this.awaitingFirstAction = false;
          plan.onFirstAction(command);
        },
        onActuatorSettled: () => stuck.actuatorSettled(),
        ...(plan.onTreeRecovery ? { onTreeRecovery: plan.onTreeRecovery } : {}),
        onProgress: (done, total, note) => {
          if (this.disarmed) return;
          stuck.progress(done, total, note?.judged !== false);
          plan.progress.report(progressReport(done, total, note));
        },
      })
      .then(
        (outcome) => outcome,
        (error: unknown): AttemptOutcome => ({
          ok: false,
          code: 'runner_error',
          detail: error instanceof Error ? error.message : String(error),
        }),
      );
  }

  /** The first verdict decides: it aborts the attempt's signal (the runtime turns a FailureCode reason into its outcome's code). */
  private stop(outcome: AttemptOutcome): void {
    if (this.verdict) return;
    this.verdict = outcome;
    this.controller.abort(outcome.ok ? 'aborted' : outcome.code);
    this.wake();
  }

  /** The supervision tick: the heartbeat, the stuck detectors, and safety signals or urgent intents that preempt. */
  private readonly tick = (): void => {
    const { scope, plan } = this;
    scope.heartbeat.beat();
    if (this.onDetection(scope.stuck.tick(scope.world.position()))) return;
    const threat = plan.preemptible && !this.pendingPreemption ? nextInterrupt(scope, plan) : null;
    if (threat && plan.spec.atomic) this.pendingPreemption = threat;
    else if (threat) {
      this.preemptedBy = threat;
      return this.stop({ ok: false, code: 'preempted', detail: `preempted by ${threat.signal}: ${threat.detail}` });
    }
    this.timers!.ticker = scope.clock.setTimeout(this.tick, this.tickMs);
  };

  private readonly onCancel = () => this.stop(cancelledOutcome(this.scope));
  private readonly onPath = (status: PathStatus, why?: string) =>
    void this.onDetection(this.scope.stuck.pathStatus(status, why));
  private readonly onDisconnect = (reason: string) =>
    this.stop({ ok: false, code: 'world_disconnected', detail: `the world disconnected: ${reason}` });
  /** A death ends the attempt at once (its step then ends `died` with the evidence: deaths.ts). */
  private readonly onDied = () => this.stop({ ok: false, code: 'died', detail: 'the bot died' });

  private onDetection(detection: Detection | null): boolean {
    if (!detection?.failureCode || this.verdict) return false;
    const { scope, plan } = this;
    const { position } = detection;
    scope.emit({
      type: 'step.stuck',
      at: scope.clock.now(),
      planId: scope.planId,
      stepId: plan.stepId,
      verb: plan.spec.name,
      detector: detection.type,
      code: detection.failureCode,
      reason: detection.reason,
      ...(position ? { position: { x: position.x, y: position.y, z: position.z } } : {}),
    });
    this.stop({ ok: false, code: detection.failureCode, detail: detection.reason });
    return true;
  }
}

function deadlinePassed(plan: AttemptPlan): AttemptOutcome {
  return {
    ok: false,
    code: 'deadline_exceeded',
    detail: `step ${plan.stepId} passed its deadline`,
    limitMs: plan.deadlineAt,
  };
}

function noFirstAction(plan: AttemptPlan): AttemptOutcome {
  return {
    ok: false,
    code: 'ttfa_exceeded',
    detail: `no actuator command within ${plan.limits.ttfaMs} ms of dispatch`,
    limitMs: plan.limits.ttfaMs,
  };
}

/** Safety first (a fast-path capability), then urgent intents waiting in the stream. */
function nextInterrupt(scope: RunScope, plan: AttemptPlan): Interrupt | null {
  const { stepId, combat } = plan;
  const options = { ignoreHostiles: plan.spec.engagesHostiles === true, ...(combat ? { combat } : {}) };
  const threat = scope.safety.check(scope.clock.now(), options);
  // With nothing to run, the step is not taken over (each takeover counts towards maxPreemptionsPerStep): said only.
  if (threat && threat.responses.length === 0) emergency(scope, threat.signal, threat.detail, 'none available');
  else if (threat)
    return { signal: threat.signal, detail: threat.detail, run: () => runFastPath(scope, threat, stepId, combat) };
  return scope.interrupts.take() ?? null;
}

/** Gives a cancelled invocation a bounded moment of clock time to stop. */
async function graceToStop(scope: RunScope, invocation: Promise<unknown>, ms: number): Promise<void> {
  let timer: TimerHandle | undefined;
  const grace = new Promise<void>((resolve) => (timer = scope.clock.setTimeout(resolve, ms)));
  await Promise.race([invocation, grace]);
  if (timer) scope.clock.clearTimeout(timer);
}
