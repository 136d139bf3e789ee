import { BehaviourTree, State } from 'mistreevous';
import type { Clock, TimerHandle } from '../contracts/clock.js';
import { FAILURE_CODE_LIST, isRetryableByDefault, type FailureCode } from '../contracts/failure-codes.js';
import { mulberry32 } from '../random.js';
import type { BindingRegistry } from './binding-registry.js';
import type { CompiledNode, CompiledTree } from './compile.js';
import type { RuntimeHooks } from './hooks.js';
import type { Invocation, RunContextParts } from './invocation.js';
import { NodeAbortedError } from './node-aborted-error.js';
import { tapNodeStates, type TappedNodes } from './node-state-tap.js';
import type { TreeOutcome } from './outcome.js';
import { buildRunAgent, type ConditionGuard } from './run-agent.js';
import { abortFailure, RunFailures, tripFailure } from './run-failures.js';
import { RunInvocations, type LeafHost } from './run-invocations.js';
import { RunReporter } from './run-reporter.js';
import { RunWatchdogs } from './run-watchdogs.js';
import type { Watchdog } from './watchdog.js';
import type { WatchdogDefaults } from './watchdog-spec.js';

export interface TreeRunSettings {
  id: number;
  tree: CompiledTree;
  parts: RunContextParts;
  bindings: BindingRegistry;
  clock: Clock;
  hooks: RuntimeHooks;
  watchdogDefaults: WatchdogDefaults;
  retryableCodes: ReadonlySet<FailureCode>;
  seed: number;
  abortGraceMs: number;
  signal: AbortSignal | undefined;
  onFinished(run: TreeRun): void;
}

/**
 * Steps taken between two ticks without waiting (on settles, after failures).
 * Past it the tick takes over, so a loop of instantly settling or failing leaves
 * cannot starve the clock and the watchdogs.
 */
const MAX_PROMPT_STEPS_PER_TICK = 64;

/** A node state's position in NODE_STATES, which indexes CompiledNode.stateChanges. */
const enum StateCode {
  ready = 0,
  running = 1,
  succeeded = 2,
  failed = 3,
}

/**
 * One execution of a compiled tree: when it steps, what its nodes' state
 * changes start and stop, and how it ends. Its leaves' invocations
 * (RunInvocations), its agent functions (buildRunAgent), its watchdogs
 * (RunWatchdogs), its failures (RunFailures) and its observers (RunReporter)
 * each live in their own file.
 */
export class TreeRun implements LeafHost {
  readonly id: number;
  readonly tree: CompiledTree;
  readonly startedAt: number;
  readonly outcome: Promise<TreeOutcome>;
  private readonly settings: TreeRunSettings;
  private readonly clock: Clock;
  private readonly behaviourTree: BehaviourTree;
  private readonly nodes: readonly CompiledNode[];
  private readonly failures: RunFailures;
  private readonly reporter: RunReporter;
  private readonly invocations: RunInvocations;
  private readonly watchdogs: RunWatchdogs;
  /** Each node's state as a StateCode, mirrored from the tap (mistreevous nodes start READY). */
  private readonly stateCodes: Uint8Array;
  private changedInStep = false;
  /**
   * Whether the fixed tick must step this run. A step that changed no node
   * state left every running leaf waiting on a promise, and the next step
   * would change nothing either: retryable guards read what failures set,
   * and failures, settles and watchdog trips (clock timers) step the run
   * themselves. Only user condition guards can turn between steps, and the
   * tick evaluates those alone (see aGuardTurned).
   */
  private tickNeeded = true;
  /** User guards in pre-order (outermost first), as mistreevous evaluates a guard path. */
  private readonly conditionGuards: readonly ConditionGuard[];
  private readonly tapped: TappedNodes;
  /** How often each retry node has been entered, for the backoff intrinsic. */
  private retryEntries: number[] | undefined;
  /** Why the nodes a watchdog trip ends are aborted; set for the one step the trip takes. */
  private abortReason: NodeAbortedError | undefined;
  private done = false;
  private stepping = false;
  private stepQueued = false;
  private failedDuringStep = false;
  private promptSteps = 0;
  private resolveOutcome!: (outcome: TreeOutcome) => void;
  private finalOutcome: TreeOutcome | undefined;
  private graceTimer: TimerHandle | undefined;

  constructor(settings: TreeRunSettings) {
    this.settings = settings;
    this.id = settings.id;
    this.tree = settings.tree;
    this.clock = settings.clock;
    this.startedAt = this.clock.now();
    this.nodes = this.tree.nodes;
    const count = this.nodes.length;
    this.failures = new RunFailures(this.nodes, settings.retryableCodes);
    this.reporter = new RunReporter(this.id, this.tree.name, this.clock, settings.hooks, (failure) =>
      this.finish(failure),
    );
    this.invocations = new RunInvocations(this.nodes, settings.parts, this.clock, this.failures, this);
    this.watchdogs = new RunWatchdogs(this.nodes, this.clock, {
      started: (index) => this.failures.forgetBelow(index),
      stopped: (index) => this.tapped.cancelEnd(index),
      tripped: (watchdog, measuredMs) => this.onNodeWatchdogTrip(watchdog, measuredMs),
    });
    this.stateCodes = new Uint8Array(count);
    this.outcome = new Promise((resolve) => (this.resolveOutcome = resolve));
    const random = mulberry32(settings.seed);
    const { agent, conditionGuards } = buildRunAgent({
      treeName: this.tree.name,
      nodes: this.nodes,
      bindings: settings.bindings,
      parts: settings.parts,
      clock: this.clock,
      random,
      failures: this.failures,
      invocations: this.invocations,
      retryEntry: (index) => this.retryEntries?.[index] ?? 0,
    });
    this.conditionGuards = conditionGuards;
    this.behaviourTree = new BehaviourTree(this.tree.definition as never, agent, { random });
    this.tapped = tapNodeStates(this.behaviourTree, count, this.onNodeStateChange);
  }

  /** Starts the run: arms the step-level watchdogs and takes the first step (dispatch). */
  start(): void {
    const signal = this.settings.signal;
    if (signal?.aborted) {
      this.finish(abortFailure(signal.reason, this.invocations.acting(), this.tree.name));
      return;
    }
    signal?.addEventListener('abort', this.onExternalAbort, { once: true });
    this.watchdogs.startRunLevel(
      this.settings.watchdogDefaults,
      this.tree.declaredKinds,
      this.tree.name,
      (watchdog, measuredMs) => this.onRunWatchdogTrip(watchdog, measuredMs),
    );
    this.step();
  }

  /** The fixed tick: renews the budget of prompt steps and steps the tree if anything can have changed. */
  tick(): void {
    this.promptSteps = 0;
    if (this.tickNeeded || this.aGuardTurned()) this.step();
  }

  /**
   * Whether a user guard of a running node no longer holds. After a step
   * that changed nothing, every running node's guards held; a step now
   * would evaluate them, find them holding, and change nothing again, so
   * evaluating them once each here is the whole of that step's work
   * (mistreevous evaluates a guard once per node on the path below it).
   */
  private aGuardTurned(): boolean {
    for (const guard of this.conditionGuards) {
      if (this.stateCodes[guard.index] === StateCode.running && !guard.holds()) return true;
    }
    return false;
  }

  /** Steps the tree once. */
  step(): void {
    if (this.done) return;
    if (this.stepping) {
      this.requestStep();
      return;
    }
    this.stepping = true;
    this.failedDuringStep = false;
    try {
      this.behaviourTree.step();
    } catch (error) {
      this.stepping = false;
      this.reporter.stepEnded();
      this.finish({
        ok: false,
        code: 'runner_error',
        detail: `${this.tree.name}: the tree could not step: ${(error as Error).message}`,
      });
      return;
    }
    this.stepping = false;
    this.abortReason = undefined;
    const changed = this.changedInStep;
    this.changedInStep = false;
    this.tickNeeded = changed;
    if (this.watchdogs.pending(changed)) this.watchdogs.afterStep(changed, this.isRunning);
    if (!this.reporter.stepEnded()) return;
    // A failure below a retry or a retryable guard is acted on by the next step; take it now.
    if (!this.finishIfEnded() && this.failedDuringStep) this.requestStep();
  }

  private finishIfEnded(): boolean {
    const state = this.behaviourTree.getState();
    if (state === State.SUCCEEDED) this.finish({ ok: true });
    else if (state === State.FAILED) this.finish(this.failures.outcome(this.tree.name));
    else return false;
    return true;
  }

  /** Ends the run from outside (executor shutdown, preemption): every live leaf is aborted. */
  cancel(code: FailureCode, detail: string): void {
    this.finish({ ok: false, code, detail });
  }

  isDone(): boolean {
    return this.done;
  }

  /** Asks for a step at once: a leaf's result came in (RunInvocations), or a failure waits for the next step. */
  requestStep(): void {
    // Past the budget, the tick takes this step.
    this.tickNeeded = true;
    if (this.stepQueued || this.done || this.promptSteps >= MAX_PROMPT_STEPS_PER_TICK) return;
    this.promptSteps++;
    this.stepQueued = true;
    queueMicrotask(this.queuedStep);
  }

  private readonly queuedStep = (): void => {
    this.stepQueued = false;
    this.step();
  };

  /** @internal RunInvocations: a watched node's first start below it begins its watchdogs. */
  leafStarting(node: CompiledNode): void {
    this.watchdogs.activate(node, this.stepping, this.invocations.liveActuations);
  }

  /** @internal Invocation.progress */
  progressOf(invocation: Invocation, done: number, total?: number): void {
    this.reporter.progress(invocation.node.path, done, total);
  }

  /** @internal Invocation.actuate: the one way a leaf commands the world; stamps the clock for the watchdogs. */
  actuateFor<T>(invocation: Invocation, command: string, act: () => Promise<T>): Promise<T> {
    if (invocation.aborted || this.done) {
      return Promise.reject(
        invocation.aborted
          ? invocation.signal.reason
          : new NodeAbortedError('aborted', `${invocation.node.path}: the run has ended`),
      );
    }
    const at = this.clock.now();
    if (!this.reporter.actuation(invocation.node.path, command, at)) {
      return Promise.reject(
        new NodeAbortedError(
          'runner_error',
          `${invocation.node.path}: the run ended before "${command}": the actuate hook threw`,
        ),
      );
    }
    const watching = this.watchdogs.over(invocation.node);
    for (const watchdog of watching) watchdog.actuationStarted(at);
    this.invocations.actuationStarted(invocation);
    let pending: Promise<T>;
    try {
      pending = Promise.resolve(act());
    } catch (error) {
      pending = Promise.reject(error);
    }
    const ended = (): void => {
      this.invocations.actuationEnded(invocation);
      const endedAt = this.clock.now();
      for (const watchdog of watching) watchdog.actuationEnded(endedAt);
      if (this.done && this.invocations.liveActuations === 0) this.resolve();
    };
    pending.then(ended, ended);
    return pending;
  }

  private readonly isRunning = (index: number): boolean => this.stateCodes[index] === StateCode.running;

  /**
   * One branch on the new state does the bookkeeping and finds the state's
   * code; the previous state's code is the one recorded last time. Only flags
   * and slots here: the step stamps the watchdogs once when it ends
   * (RunWatchdogs.afterStep).
   */
  private readonly onNodeStateChange = (index: number, _previous: State, state: State): void => {
    this.changedInStep = true;
    const node = this.nodes[index]!;
    const from: StateCode = this.stateCodes[index]!;
    let to: StateCode;
    if (state === State.RUNNING) {
      to = StateCode.running;
      if (node.watchedBy.length > 0 && !this.done)
        this.watchdogs.activate(node, this.stepping, this.invocations.liveActuations);
      if (node.type === 'retry' && from === StateCode.ready)
        (this.retryEntries ??= [])[index] = (this.retryEntries[index] ?? 0) + 1;
    } else {
      if (this.watchdogs.isActive(index)) this.watchdogs.stop(index);
      if (state === State.READY) {
        to = StateCode.ready;
        this.invocations.abort(node, this.abortReason);
      } else if (state === State.SUCCEEDED) {
        to = StateCode.succeeded;
      } else {
        to = StateCode.failed;
        this.failedDuringStep = true;
      }
    }
    this.stateCodes[index] = to;
    this.watchdogs.changedAt(node);
    this.reporter.nodeStateChanged(node, from, to);
  };

  private readonly onNodeWatchdogTrip = (watchdog: Watchdog, measuredMs: number): void => {
    if (this.done) return;
    const failure = tripFailure(watchdog, measuredMs);
    this.reporter.watchdogTrip(watchdog.kind, failure);
    if (this.done) return;
    const node = this.nodes.find((n) => n.path === watchdog.nodePath)!;
    // A `then succeed` trip is a time-box the tree asked for, not a failure to blame later.
    if (!node.watchdogSucceedsOnTrip) this.failures.record(node, failure);
    // The step now fails the node's guard: mistreevous aborts the subtree (the leaves' signals carry the trip) and its
    // parent reacts.
    this.abortReason = new NodeAbortedError(failure.code, failure.detail);
    this.tapped.endAtNextUpdate(node.index, node.watchdogSucceedsOnTrip);
    this.step();
  };

  private onRunWatchdogTrip(watchdog: Watchdog, measuredMs: number): void {
    const failure = tripFailure(watchdog, measuredMs);
    this.reporter.watchdogTrip(watchdog.kind, failure);
    this.finish(failure);
  }

  private readonly onExternalAbort = (): void => {
    this.finish(abortFailure(this.settings.signal?.reason, this.invocations.acting(), this.tree.name));
  };

  /**
   * Ends the run once: stops its watchdogs, aborts every leaf, and resolves when no actuator is live (or after the
   * grace).
   */
  private finish(outcome: TreeOutcome): void {
    if (this.done) return;
    this.done = true;
    this.finalOutcome = outcome;
    this.settings.signal?.removeEventListener('abort', this.onExternalAbort);
    this.watchdogs.stopAll();
    this.invocations.abortAll(
      new NodeAbortedError(outcome.ok ? 'aborted' : outcome.code, `${this.tree.name}: the run ended`),
    );
    this.settings.onFinished(this);
    if (this.invocations.liveActuations === 0) this.resolve();
    else this.graceTimer = this.clock.setTimeout(() => this.resolve(), this.settings.abortGraceMs);
  }

  private resolve(): void {
    if (!this.finalOutcome) return;
    const outcome = this.finalOutcome;
    this.finalOutcome = undefined;
    if (this.graceTimer) this.clock.clearTimeout(this.graceTimer);
    // The outcome first: a runEnd observer that throws cannot keep the run's caller waiting.
    this.resolveOutcome(outcome);
    this.reporter.runEnded(this.startedAt, outcome, this.invocations.liveActuations);
  }
}

/** The failure codes a run treats as retryable: the capability's list, or each code's default. */
export function retryableSet(codes: readonly FailureCode[] | undefined): ReadonlySet<FailureCode> {
  return new Set(codes ?? FAILURE_CODE_LIST.filter(isRetryableByDefault));
}
