import { BehaviourTree, State } from 'mistreevous';
import type { Clock, TimerHandle } from '../contracts/clock.js';
import {
  FAILURE_CODE_LIST,
  isFailureCode,
  isRetryableByDefault,
  type FailureCode,
} from '../contracts/failure-codes.js';
import { mulberry32, type Random } from '../random.js';
import type { RunContext } from '../registry/capability-spec.js';
import { BackoffIntrinsic } from './backoff-intrinsic.js';
import type { BindingRegistry } from './binding-registry.js';
import { agentKey, type CompiledNode, type CompiledTree } from './compile.js';
import type { NodeStateChange, RuntimeHooks } from './hooks.js';
import { Invocation, type InvocationOwner, type RunContextParts } from './invocation.js';
import { NodeAbortedError } from './node-aborted-error.js';
import { tapNodeStates, type TappedNodes } from './node-state-tap.js';
import type { TreeFailure, TreeOutcome } from './outcome.js';
import { RoundRobinIntrinsic } from './round-robin-intrinsic.js';
import { RunWatchdogs } from './run-watchdogs.js';
import { waitDurationMs, waitOnClock } from './wait-intrinsic.js';
import type { Watchdog } from './watchdog.js';
import { WATCHDOG_KINDS, type WatchdogDefaults } from './watchdog-spec.js';

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

/** Conditions and guards observe; nothing ever aborts them, so all runs share one signal. */
const NEVER_ABORTED = new AbortController().signal;

/** A node state's position in NODE_STATES, which indexes CompiledNode.stateChanges. */
const enum StateCode {
  ready = 0,
  running = 1,
  succeeded = 2,
  failed = 3,
}

function ignoreProgress(): void {}

function isReference(arg: CompiledNode['args'][number]): arg is { $: string } {
  return typeof arg === 'object' && arg !== null;
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}

function failureOf(node: CompiledNode, error: unknown): TreeFailure {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return {
    ok: false,
    code: isFailureCode(code) ? code : 'runner_error',
    detail: `${node.path}: ${message}`,
    nodePath: node.path,
  };
}

function abortCodeOf(reason: unknown): FailureCode {
  if (isFailureCode(reason)) return reason;
  const code = (reason as { code?: unknown } | null)?.code;
  return isFailureCode(code) ? code : 'aborted';
}

/**
 * One execution of a compiled tree. Leaves never hand promises to mistreevous:
 * each start is an Invocation held in the node's slot; the node polls the slot,
 * and a leaving-RUNNING transition (guard, watchdog, reset, race) clears the
 * slot and fires the invocation's signal. A late settle finds another (or no)
 * invocation in the slot and is dropped, so it cannot reach a later run.
 */
export class TreeRun implements InvocationOwner {
  readonly id: number;
  readonly tree: CompiledTree;
  readonly startedAt: number;
  readonly outcome: Promise<TreeOutcome>;
  private readonly settings: TreeRunSettings;
  private readonly clock: Clock;
  private readonly hooks: RuntimeHooks;
  private readonly behaviourTree: BehaviourTree;
  private readonly nodes: readonly CompiledNode[];
  // Per-node state lives in arrays indexed by node, not Maps: the step path only reads slots.
  private readonly slots: (Invocation | undefined)[];
  private readonly failureBelow: (FailureCode | undefined)[];
  private readonly watchdogs: RunWatchdogs;
  /** Each node's state as a StateCode, mirrored from the tap (mistreevous nodes start READY). */
  private readonly stateCodes: Uint8Array;
  private changedInStep = false;
  /** This step's node state changes, when someone observes them. */
  private stepChanges: NodeStateChange[] | undefined;
  private stepChangeCount = 0;
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
  private readonly conditionGuards: { index: number; holds: () => boolean }[] = [];
  private readonly tapped: TappedNodes;
  private retryEntries: number[] | undefined;
  private backoff: BackoffIntrinsic | undefined;
  private roundRobin: RoundRobinIntrinsic | undefined;
  private liveInvocations: Set<Invocation> | undefined;
  private readonly random: Random;
  private readonly conditionContext: RunContext;
  private lastFailure: TreeFailure | undefined;
  private lastFailedLeaf: string | undefined;
  private abortReason: NodeAbortedError | undefined;
  private liveActuations = 0;
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
    this.hooks = settings.hooks;
    if (this.hooks.nodeStates) this.stepChanges = [];
    this.startedAt = this.clock.now();
    this.random = mulberry32(settings.seed);
    this.nodes = this.tree.nodes;
    const count = this.nodes.length;
    this.slots = new Array<Invocation | undefined>(count).fill(undefined);
    this.failureBelow = new Array<FailureCode | undefined>(count).fill(undefined);
    this.watchdogs = new RunWatchdogs(this.nodes, this.clock, {
      started: (index) => {
        this.failureBelow[index] = undefined;
      },
      stopped: (index) => this.tapped.cancelEnd(index),
      tripped: (watchdog, measuredMs) => this.onNodeWatchdogTrip(watchdog, measuredMs),
    });
    this.stateCodes = new Uint8Array(count);
    this.outcome = new Promise((resolve) => (this.resolveOutcome = resolve));
    const treeName = this.tree.name;
    this.conditionContext = {
      args: settings.parts.args,
      world: settings.parts.world,
      signal: NEVER_ABORTED,
      clock: this.clock,
      actuate: () => Promise.reject(new Error(`${treeName}: conditions and guards observe; they cannot actuate`)),
      progress: ignoreProgress,
    };
    this.behaviourTree = new BehaviourTree(this.tree.definition as never, this.buildAgent(), { random: this.random });
    this.tapped = tapNodeStates(this.behaviourTree, count, this.onNodeStateChange);
  }

  /** Starts the run: arms the step-level watchdogs and takes the first step (dispatch). */
  start(): void {
    const signal = this.settings.signal;
    if (signal?.aborted) {
      this.finish(this.abortOutcome(signal.reason));
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
      this.reportStepChanges();
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
    if (!this.reportStepChanges()) return;
    // A failure below a retry or a retryable guard is acted on by the next step; take it now.
    if (!this.finishIfEnded() && this.failedDuringStep) this.requestStep();
  }

  private finishIfEnded(): boolean {
    const state = this.behaviourTree.getState();
    if (state === State.SUCCEEDED) this.finish({ ok: true });
    else if (state === State.FAILED) this.finish(this.failedOutcome());
    else return false;
    return true;
  }

  /** Hands the step's changes to the nodeStates hook; false when the hook threw, which ends the run. */
  private reportStepChanges(): boolean {
    const changes = this.stepChanges;
    const count = this.stepChangeCount;
    if (!changes || count === 0) return true;
    // Sized like this step's batch, the next one usually fills its array exactly: one allocation, no growth.
    this.stepChanges = new Array<NodeStateChange>(count);
    this.stepChangeCount = 0;
    if (count < changes.length) changes.length = count;
    return this.notify('nodeStates', { runId: this.id, tree: this.tree.name, at: this.clock.now(), changes });
  }

  /**
   * Hands an event to an observer. Observers cannot change a run, but one
   * that throws must not leave it half-stepped or a watchdog half-stamped:
   * the run ends as runner_error naming the hook. False when it did.
   */
  private notify<K extends Exclude<keyof RuntimeHooks, 'runEnd'>>(
    name: K,
    event: Parameters<NonNullable<RuntimeHooks[K]>>[0],
  ): boolean {
    try {
      (this.hooks[name] as ((e: typeof event) => void) | undefined)?.(event);
      return true;
    } catch (error) {
      this.finish({
        ok: false,
        code: 'runner_error',
        detail: `${this.tree.name}: the ${name} hook threw: ${error instanceof Error ? error.message : String(error)}`,
      });
      return false;
    }
  }

  /** Ends the run from outside (executor shutdown, preemption): every live leaf is aborted. */
  cancel(code: FailureCode, detail: string): void {
    this.finish({ ok: false, code, detail });
  }

  isDone(): boolean {
    return this.done;
  }

  private requestStep(): void {
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

  private buildAgent(): Record<string, () => unknown> {
    const agent: Record<string, () => unknown> = {};
    for (const node of this.nodes) {
      if (node.type === 'action' || node.type === 'wait') agent[agentKey.leaf(node.index)] = this.actionFunction(node);
      if (node.type === 'condition') {
        const condition = this.withArgs(this.settings.bindings.condition(node.name!)!, node.args);
        agent[agentKey.leaf(node.index)] = () => this.evaluate(node, condition);
      }
      for (const guard of node.guards) {
        const condition = this.withArgs(this.settings.bindings.condition(guard.call)!, guard.args);
        agent[guard.kind === 'while' ? agentKey.whileGuard(node.index) : agentKey.untilGuard(node.index)] = () =>
          this.evaluate(node, condition);
        const expected = guard.kind === 'while';
        this.conditionGuards.push({ index: node.index, holds: () => this.probe(condition) === expected });
      }
      if (node.retryableGuard) {
        agent[agentKey.whileGuard(node.index)] = () => this.retryableHolds(node);
      }
    }
    return agent;
  }

  private actionFunction(node: CompiledNode): () => unknown {
    let start: (ctx: RunContext) => unknown;
    if (node.type === 'wait') {
      start = (ctx) => waitOnClock(this.clock, ctx.signal, waitDurationMs(node.args, this.random));
    } else if (node.name === 'backoff') {
      const backoff = (this.backoff ??= new BackoffIntrinsic(this.clock, this.random));
      start = (ctx) =>
        backoff.start(node, node.retryAncestor === undefined ? 0 : (this.retryEntries?.[node.retryAncestor] ?? 0), ctx);
    } else if (node.name === 'round_robin') {
      const roundRobin = (this.roundRobin ??= new RoundRobinIntrinsic(this.settings.bindings));
      start = (ctx) => roundRobin.start(node, ctx);
    } else {
      start = this.withArgs(this.settings.bindings.action(node.name!)!, node.args);
    }
    return () => this.poll(node, start);
  }

  /** Binds a leaf's node arguments once; only `$name` references are resolved per call. */
  private withArgs<R>(
    leaf: (ctx: RunContext, ...args: unknown[]) => R,
    args: CompiledNode['args'],
  ): (ctx: RunContext) => R {
    if (args.length === 0) return leaf;
    if (!args.some(isReference)) return (ctx) => leaf(ctx, ...args);
    return (ctx) =>
      leaf(
        ctx,
        ...args.map((arg) =>
          isReference(arg) ? (this.settings.parts.args as Record<string, unknown> | null)?.[arg.$] : arg,
        ),
      );
  }

  /** mistreevous calls a RUNNING leaf on every step: start it once, then report its settled result. */
  private poll(node: CompiledNode, start: (ctx: RunContext) => unknown): State | undefined {
    const current = this.slots[node.index];
    if (current) {
      if (!current.settled) return undefined;
      this.slots[node.index] = undefined;
      return current.ok ? State.SUCCEEDED : State.FAILED;
    }
    // A run ended mid-step (its caller aborted from inside a leaf) starts nothing more.
    if (this.done) return State.FAILED;
    if (node.watchedBy.length > 0) this.watchdogs.activate(node, this.stepping, this.liveActuations);
    const invocation = new Invocation(this, node, this.settings.parts, this.clock);
    let result: unknown;
    try {
      result = start(invocation);
    } catch (error) {
      this.recordFailure(node, failureOf(node, error));
      return State.FAILED;
    }
    // Synchronous results first: most leaves settle at once, and they are never promises.
    if (result === true || result === undefined) return State.SUCCEEDED;
    if (isPromiseLike(result)) {
      this.slots[node.index] = invocation;
      result.then(
        (value) => this.settle(invocation, value !== false, undefined),
        (error: unknown) => this.settle(invocation, false, error ?? new Error('rejected')),
      );
      return undefined;
    }
    if (result === false) {
      this.lastFailedLeaf = node.path;
      return State.FAILED;
    }
    return State.SUCCEEDED;
  }

  private settle(invocation: Invocation, ok: boolean, error: unknown): void {
    // The token check: an aborted or superseded invocation no longer owns the slot.
    if (this.slots[invocation.node.index] !== invocation || this.done) return;
    if (error !== undefined) this.recordFailure(invocation.node, failureOf(invocation.node, error));
    else if (!ok) this.lastFailedLeaf = invocation.node.path;
    invocation.settled = true;
    invocation.ok = ok;
    this.requestStep();
  }

  /** A guard's value for the tick's check, with no side effect: a throw is left for the step to evaluate and record. */
  private probe(condition: (ctx: RunContext) => boolean): boolean | undefined {
    try {
      return condition(this.conditionContext) === true;
    } catch {
      return undefined;
    }
  }

  private evaluate(node: CompiledNode, condition: (ctx: RunContext) => boolean): boolean {
    try {
      return condition(this.conditionContext) === true;
    } catch (error) {
      this.recordFailure(node, failureOf(node, error));
      return false;
    }
  }

  /** @internal Invocation.progress */
  progressOf(invocation: Invocation, done: number, total?: number): void {
    if (this.hooks.progress)
      this.notify('progress', {
        runId: this.id,
        tree: this.tree.name,
        at: this.clock.now(),
        nodePath: invocation.node.path,
        done,
        total,
      });
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
    if (
      this.hooks.actuate &&
      !this.notify('actuate', { runId: this.id, tree: this.tree.name, at, nodePath: invocation.node.path, command })
    ) {
      return Promise.reject(
        new NodeAbortedError(
          'runner_error',
          `${invocation.node.path}: the run ended before "${command}": the actuate hook threw`,
        ),
      );
    }
    const watching = this.watchdogs.over(invocation.node);
    for (const watchdog of watching) watchdog.actuationStarted(at);
    invocation.live++;
    this.liveActuations++;
    (this.liveInvocations ??= new Set()).add(invocation);
    let pending: Promise<T>;
    try {
      pending = Promise.resolve(act());
    } catch (error) {
      pending = Promise.reject(error);
    }
    const ended = (): void => {
      invocation.live--;
      this.liveActuations--;
      if (invocation.live === 0) this.liveInvocations?.delete(invocation);
      const endedAt = this.clock.now();
      for (const watchdog of watching) watchdog.actuationEnded(endedAt);
      if (this.done && this.liveActuations === 0) this.resolve();
    };
    pending.then(ended, ended);
    return pending;
  }

  /**
   * One branch on the new state does the bookkeeping and finds the state's
   * code; the previous state's code is the one recorded last time.
   */
  private readonly isRunning = (index: number): boolean => this.stateCodes[index] === StateCode.running;

  private readonly onNodeStateChange = (index: number, _previous: State, state: State): void => {
    // Only flags and slots here: the step stamps the watchdogs once when it ends (see RunWatchdogs.afterStep).
    this.changedInStep = true;
    const node = this.nodes[index]!;
    const watchedBy = node.watchedBy;
    const from = this.stateCodes[index] as StateCode;
    let to: StateCode;
    if (state === State.RUNNING) {
      to = StateCode.running;
      if (watchedBy.length > 0 && !this.done) this.watchdogs.activate(node, this.stepping, this.liveActuations);
      if (node.type === 'retry' && from === StateCode.ready)
        (this.retryEntries ??= [])[index] = (this.retryEntries[index] ?? 0) + 1;
    } else {
      if (this.watchdogs.isActive(index)) this.watchdogs.stop(index);
      if (state === State.READY) {
        to = StateCode.ready;
        if (this.slots[index]) this.abortSlot(node);
      } else if (state === State.SUCCEEDED) {
        to = StateCode.succeeded;
      } else {
        to = StateCode.failed;
        this.failedDuringStep = true;
      }
    }
    this.stateCodes[index] = to;
    this.watchdogs.changedAt(node);
    if (this.stepChanges) this.stepChanges[this.stepChangeCount++] = node.stateChanges[from * 4 + to]!;
  };

  private abortSlot(node: CompiledNode): void {
    const invocation = this.slots[node.index];
    if (!invocation) return;
    this.slots[node.index] = undefined;
    invocation.abort(this.abortReason ?? new NodeAbortedError('aborted', `${node.path}: aborted by a guard or reset`));
  }

  /** `while(retryable)`: evaluated on every update below the node, so it only reads what recordFailure set. */
  private retryableHolds(node: CompiledNode): boolean {
    const code = this.failureBelow[node.index];
    return code === undefined || this.settings.retryableCodes.has(code);
  }

  /** The detail is for people (whole ms, as a wall clock reads 20000.3328...); measuredMs stays exact. */
  private tripFailure(watchdog: Watchdog, measuredMs: number) {
    const code = WATCHDOG_KINDS[watchdog.kind];
    const failure = {
      ok: false as const,
      code,
      detail: `${watchdog.nodePath}: ${watchdog.kind} watchdog tripped after ${Math.round(measuredMs)} ms (limit ${watchdog.limitMs} ms)`,
      nodePath: watchdog.nodePath,
      limitMs: watchdog.limitMs,
      measuredMs,
    };
    if (this.hooks.watchdogTrip)
      this.notify('watchdogTrip', {
        runId: this.id,
        tree: this.tree.name,
        at: this.clock.now(),
        kind: watchdog.kind,
        failure,
      });
    return failure;
  }

  private readonly onNodeWatchdogTrip = (watchdog: Watchdog, measuredMs: number): void => {
    if (this.done) return;
    const failure = this.tripFailure(watchdog, measuredMs);
    if (this.done) return;
    const node = this.nodes.find((n) => n.path === watchdog.nodePath)!;
    // A `then succeed` trip is a time-box the tree asked for, not a failure to blame later.
    if (!node.watchdogSucceedsOnTrip) this.recordFailure(node, failure);
    // The step now fails the node's guard: mistreevous aborts the subtree (the leaves' signals carry the trip) and its
    // parent reacts.
    this.abortReason = new NodeAbortedError(failure.code, failure.detail);
    this.tapped.endAtNextUpdate(node.index, node.watchdogSucceedsOnTrip);
    this.step();
  };

  private onRunWatchdogTrip(watchdog: Watchdog, measuredMs: number): void {
    this.finish(this.tripFailure(watchdog, measuredMs));
  }

  private recordFailure(node: CompiledNode, failure: TreeFailure): void {
    this.lastFailure = failure;
    this.lastFailedLeaf = node.path;
    for (const index of node.watchedBy) if (this.nodes[index]!.retryableGuard) this.failureBelow[index] = failure.code;
  }

  /**
   * The latest coded failure (a throw, a trip), else the last leaf that
   * returned false. A code wins over a later plain false: recovery leaves
   * (an unstuck move that changed nothing) return false, and the planner
   * needs the code (no_path), not "returned false".
   */
  private failedOutcome(): TreeFailure {
    if (this.lastFailure) return this.lastFailure;
    const at = this.lastFailedLeaf ?? this.tree.name;
    return {
      ok: false,
      code: 'runner_error',
      detail: `${this.tree.name}: the tree failed; last failed leaf ${at} returned false`,
      nodePath: at,
    };
  }

  /**
   * The caller's abort (a stuck detector, a step deadline, a cancel) lands on whatever was acting: the action
   * leaf running then (the last in tree order, when several run in parallel) is the failing node.
   */
  private abortOutcome(reason: unknown): TreeFailure {
    const code = abortCodeOf(reason);
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a caller's own abort reason, shown as it is
    const why = reason instanceof Error ? reason.message : String(reason ?? 'no reason given');
    const acting = this.nodes.filter((node) => this.slots[node.index] !== undefined).at(-1);
    return {
      ok: false,
      code,
      detail: `${acting?.path ?? this.tree.name}: aborted by the caller (${why})`,
      ...(acting ? { nodePath: acting.path } : {}),
    };
  }

  private readonly onExternalAbort = (): void => {
    this.finish(this.abortOutcome(this.settings.signal?.reason));
  };

  private finish(outcome: TreeOutcome): void {
    if (this.done) return;
    this.done = true;
    this.finalOutcome = outcome;
    this.settings.signal?.removeEventListener('abort', this.onExternalAbort);
    this.watchdogs.stopAll();
    const reason = new NodeAbortedError(outcome.ok ? 'aborted' : outcome.code, `${this.tree.name}: the run ended`);
    for (const node of this.nodes) {
      const invocation = this.slots[node.index];
      this.slots[node.index] = undefined;
      invocation?.abort(reason);
    }
    if (this.liveInvocations) for (const invocation of this.liveInvocations) invocation.abort(reason);
    this.settings.onFinished(this);
    if (this.liveActuations === 0) this.resolve();
    else this.graceTimer = this.clock.setTimeout(() => this.resolve(), this.settings.abortGraceMs);
  }

  private resolve(): void {
    if (!this.finalOutcome) return;
    const outcome = this.finalOutcome;
    this.finalOutcome = undefined;
    if (this.graceTimer) this.clock.clearTimeout(this.graceTimer);
    // The outcome first: a runEnd observer that throws cannot keep the run's caller waiting.
    this.resolveOutcome(outcome);
    this.hooks.runEnd?.({
      runId: this.id,
      tree: this.tree.name,
      at: this.clock.now(),
      startedAt: this.startedAt,
      outcome,
      liveActuators: this.liveActuations,
    });
  }
}

/** The failure codes a run treats as retryable: the capability's list, or each code's default. */
export function retryableSet(codes: readonly FailureCode[] | undefined): ReadonlySet<FailureCode> {
  return new Set(codes ?? FAILURE_CODE_LIST.filter(isRetryableByDefault));
}
