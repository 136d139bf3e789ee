import type { Clock } from '../contracts/clock.js';
import type { ProgressNote } from '../registry/capability-spec.js';
import type { CompiledNode } from './compile.js';
import type { NodeStateChange, RuntimeHooks, WatchdogTripEvent } from './hooks.js';
import type { TreeFailure, TreeOutcome } from './outcome.js';

/**
 * Hands one run's events to its observers (RuntimeHooks). Observers cannot
 * change a run, but one that throws must not leave it half-stepped or a
 * watchdog half-stamped: the run ends as runner_error naming the hook
 * (`endRun`), and the call that reported answers false. An event is built only
 * when someone observes it.
 */
export class RunReporter {
  /** This step's node state changes, when someone observes them. */
  private stepChanges: NodeStateChange[] | undefined;
  private stepChangeCount = 0;

  constructor(
    private readonly runId: number,
    private readonly treeName: string,
    private readonly clock: Clock,
    private readonly hooks: RuntimeHooks,
    private readonly endRun: (failure: TreeFailure) => void,
  ) {
    if (hooks.nodeStates) this.stepChanges = [];
  }

  /** A node changed state within the step; `from` and `to` are positions in NODE_STATES. */
  nodeStateChanged(node: CompiledNode, from: number, to: number): void {
    if (this.stepChanges) this.stepChanges[this.stepChangeCount++] = node.stateChanges[from * 4 + to]!;
  }

  /** Hands the step's changes to the nodeStates hook; false when the hook threw, which ends the run. */
  stepEnded(): boolean {
    const changes = this.stepChanges;
    const count = this.stepChangeCount;
    if (!changes || count === 0) return true;
    // Sized like this step's batch, the next one usually fills its array exactly: one allocation, no growth.
    this.stepChanges = new Array<NodeStateChange>(count);
    this.stepChangeCount = 0;
    if (count < changes.length) changes.length = count;
    return this.notify('nodeStates', { runId: this.runId, tree: this.treeName, at: this.clock.now(), changes });
  }

  /** A leaf is about to command the world; false when the hook threw, which ends the run. */
  actuation(nodePath: string, command: string, at: number): boolean {
    if (!this.hooks.actuate) return true;
    return this.notify('actuate', { runId: this.runId, tree: this.treeName, at, nodePath, command });
  }

  progress(nodePath: string, done: number, total: number | undefined, note: ProgressNote | undefined): void {
    if (this.hooks.progress)
      this.notify('progress', {
        runId: this.runId,
        tree: this.treeName,
        at: this.clock.now(),
        nodePath,
        done,
        total,
        ...(note?.unit !== undefined ? { unit: note.unit } : {}),
        ...(note?.detail !== undefined ? { detail: note.detail } : {}),
        ...(note?.judged !== undefined ? { judged: note.judged } : {}),
      });
  }

  watchdogTrip(kind: WatchdogTripEvent['kind'], failure: WatchdogTripEvent['failure']): void {
    if (this.hooks.watchdogTrip)
      this.notify('watchdogTrip', { runId: this.runId, tree: this.treeName, at: this.clock.now(), kind, failure });
  }

  runEnded(startedAt: number, outcome: TreeOutcome, liveActuators: number): void {
    this.hooks.runEnd?.({
      runId: this.runId,
      tree: this.treeName,
      at: this.clock.now(),
      startedAt,
      outcome,
      liveActuators,
    });
  }

  private notify<K extends Exclude<keyof RuntimeHooks, 'runEnd'>>(
    name: K,
    event: Parameters<NonNullable<RuntimeHooks[K]>>[0],
  ): boolean {
    try {
      (this.hooks[name] as ((e: typeof event) => void) | undefined)?.(event);
      return true;
    } catch (error) {
      this.endRun({
        ok: false,
        code: 'runner_error',
        detail: `${this.treeName}: the ${name} hook threw: ${error instanceof Error ? error.message : String(error)}`,
      });
      return false;
    }
  }
}
