import { State } from 'mistreevous';
import type { Clock } from '../contracts/clock.js';
import type { RunContext } from '../registry/capability-spec.js';
import type { CompiledNode } from './compile.js';
import { Invocation, type InvocationOwner, type RunContextParts } from './invocation.js';
import { NodeAbortedError } from './node-aborted-error.js';
import { failureOf, type RunFailures } from './run-failures.js';

/** What a run's leaf invocations need from the run. */
export interface LeafHost extends InvocationOwner {
  /** The run has ended: a leaf polled now starts nothing. */
  isDone(): boolean;
  /** A leaf of a watched node is starting: the node's watchdogs (and its watched ancestors') begin. */
  leafStarting(node: CompiledNode): void;
  /** A leaf's promise settled: the tree must step to take its result. */
  requestStep(): void;
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}

/**
 * The leaf invocations of one run. Leaves never hand promises to mistreevous:
 * each start is an Invocation held in the node's slot; the node polls the slot,
 * and a leaving-RUNNING transition (guard, watchdog, reset, race) clears the
 * slot and fires the invocation's signal. A late settle finds another (or no)
 * invocation in the slot and is dropped, so it cannot reach a later run.
 * It also counts the actuator commands in flight, which the run's end waits for.
 */
export class RunInvocations {
  /** Actuator commands in flight, across every invocation of the run. */
  liveActuations = 0;
  // Per-node state lives in an array indexed by node, not a Map: the step path only reads slots.
  private readonly slots: (Invocation | undefined)[];
  /** The invocations with a command in flight, which may no longer hold a slot. */
  private liveInvocations: Set<Invocation> | undefined;

  constructor(
    private readonly nodes: readonly CompiledNode[],
    private readonly parts: RunContextParts,
    private readonly clock: Clock,
    private readonly failures: RunFailures,
    private readonly host: LeafHost,
  ) {
    this.slots = new Array<Invocation | undefined>(nodes.length).fill(undefined);
  }

  /** mistreevous calls a RUNNING leaf on every step: start it once, then report its settled result. */
  poll(node: CompiledNode, start: (ctx: RunContext) => unknown): State | undefined {
    const current = this.slots[node.index];
    if (current) {
      if (!current.settled) return undefined;
      this.slots[node.index] = undefined;
      return current.ok ? State.SUCCEEDED : State.FAILED;
    }
    // A run ended mid-step (its caller aborted from inside a leaf) starts nothing more.
    if (this.host.isDone()) return State.FAILED;
    if (node.watchedBy.length > 0) this.host.leafStarting(node);
    const invocation = new Invocation(this.host, node, this.parts, this.clock);
    let result: unknown;
    try {
      result = start(invocation);
    } catch (error) {
      this.failures.record(node, failureOf(node, error));
      return State.FAILED;
    }
    // Synchronous results first: most leaves settle at once, and they are never promises.
    if (result === true || result === undefined) return State.SUCCEEDED;
    if (isPromiseLike(result)) {
      this.slots[node.index] = invocation;
      result.then(
        (value) => this.keepResult(invocation, value !== false, undefined),
        (error: unknown) => this.keepResult(invocation, false, error ?? new Error('rejected')),
      );
      return undefined;
    }
    if (result === false) {
      this.failures.leafReturnedFalse(node);
      return State.FAILED;
    }
    return State.SUCCEEDED;
  }

  /** Keeps a settled promise's result in its slot for the next poll, and asks for that step. */
  private keepResult(invocation: Invocation, ok: boolean, error: unknown): void {
    // The token check: an aborted or superseded invocation no longer owns the slot.
    if (this.slots[invocation.node.index] !== invocation || this.host.isDone()) return;
    if (error !== undefined) this.failures.record(invocation.node, failureOf(invocation.node, error));
    else if (!ok) this.failures.leafReturnedFalse(invocation.node);
    invocation.settled = true;
    invocation.ok = ok;
    this.host.requestStep();
  }

  /** The node left RUNNING: its invocation, if any, loses the slot and its signal fires. */
  abort(node: CompiledNode, reason: NodeAbortedError | undefined): void {
    const invocation = this.slots[node.index];
    if (!invocation) return;
    this.slots[node.index] = undefined;
    invocation.abort(reason ?? new NodeAbortedError('aborted', `${node.path}: aborted by a guard or reset`));
  }

  /** The run ended: every invocation's signal fires, those still commanding the world included. */
  abortAll(reason: NodeAbortedError): void {
    for (const node of this.nodes) {
      const invocation = this.slots[node.index];
      this.slots[node.index] = undefined;
      invocation?.abort(reason);
    }
    if (this.liveInvocations) for (const invocation of this.liveInvocations) invocation.abort(reason);
  }

  /** The action leaf acting now: the last in tree order, when several run in parallel. */
  acting(): CompiledNode | undefined {
    return this.nodes.filter((node) => this.slots[node.index] !== undefined).at(-1);
  }

  actuationStarted(invocation: Invocation): void {
    invocation.live++;
    this.liveActuations++;
    (this.liveInvocations ??= new Set()).add(invocation);
  }

  actuationEnded(invocation: Invocation): void {
    invocation.live--;
    this.liveActuations--;
    if (invocation.live === 0) this.liveInvocations?.delete(invocation);
  }
}
