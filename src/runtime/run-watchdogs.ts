import type { Clock } from '../contracts/clock.js';
import type { CompiledNode } from './compile.js';
import { Watchdog, type TripHandler } from './watchdog.js';
import { WATCHDOG_KIND_LIST, type WatchdogDefaults, type WatchdogKind } from './watchdog-spec.js';

export interface WatchedNodeEvents {
  /** A watched node became active: a start below it (or its own) began. */
  started(index: number): void;
  /** A watched node stopped running. */
  stopped(index: number): void;
  tripped: TripHandler;
}

function allIdle(watchdogs: readonly Watchdog[]): boolean {
  for (const watchdog of watchdogs) if (!watchdog.idle) return false;
  return true;
}

/**
 * The watchdogs of one run: the step-level ones, and those of each watched
 * node (one with watchdogs or a retryable guard) from the first start below
 * it until it stops running. Per-node state lives in arrays indexed by node:
 * the step path only reads them.
 */
export class RunWatchdogs {
  private readonly active: boolean[];
  /** Each watched node's watchdogs; kept after the node stops, to be restarted on its next entry. */
  private readonly byNode: (Watchdog[] | undefined)[];
  private readonly watched: readonly number[];
  private readonly changedBelow: boolean[];
  private readonly runLevel: Watchdog[] = [];
  /** The run-level maxStateDuration watchdog, the only one that cares about every state change. */
  private runStateWatchdog: Watchdog | undefined;
  /** Watchdogs started during a step are armed after it, so nodes that finish within the step cost no timer. */
  private armAfterStep = false;

  constructor(
    private readonly nodes: readonly CompiledNode[],
    private readonly clock: Clock,
    private readonly events: WatchedNodeEvents,
  ) {
    this.active = new Array<boolean>(nodes.length).fill(false);
    this.byNode = new Array<Watchdog[] | undefined>(nodes.length).fill(undefined);
    this.changedBelow = new Array<boolean>(nodes.length).fill(false);
    this.watched = nodes.filter((node) => node.watchdogs.length > 0 || node.retryableGuard).map((node) => node.index);
  }

  /** Arms the step-level defaults for every kind the tree does not declare. */
  startRunLevel(
    defaults: WatchdogDefaults,
    declared: ReadonlySet<WatchdogKind>,
    treeName: string,
    tripped: TripHandler,
  ): void {
    const limits: Record<WatchdogKind, number> = {
      ttfa: defaults.ttfaMs,
      noActuator: defaults.noActuatorMs,
      maxStateDuration: defaults.maxStateDurationMs,
    };
    for (const kind of WATCHDOG_KIND_LIST) {
      if (declared.has(kind)) continue;
      const watchdog = new Watchdog(kind, limits[kind], treeName, this.clock, tripped);
      this.runLevel.push(watchdog);
      if (kind === 'maxStateDuration') this.runStateWatchdog = watchdog;
      watchdog.arm();
    }
  }

  isActive(index: number): boolean {
    return this.active[index]!;
  }

  /** Starts the watchdogs of a node and its watched ancestors that are not running yet. */
  activate(node: CompiledNode, inStep: boolean, commandsInFlight: number): void {
    for (const index of node.watchedBy) {
      if (this.active[index]) continue;
      this.active[index] = true;
      this.events.started(index);
      const watched = this.nodes[index]!;
      if (watched.watchdogs.length === 0) continue;
      let watchdogs = this.byNode[index];
      // Every in-flight command is counted; with none, no watchdog can be waiting on one.
      if (watchdogs && (commandsInFlight === 0 || allIdle(watchdogs))) {
        for (const watchdog of watchdogs) watchdog.restart();
      } else {
        watchdogs = watched.watchdogs.map(
          (spec) => new Watchdog(spec.kind, spec.limitMs, watched.path, this.clock, this.events.tripped),
        );
        this.byNode[index] = watchdogs;
      }
      if (inStep) this.armAfterStep = true;
      else for (const watchdog of watchdogs) watchdog.arm();
    }
  }

  stop(index: number): void {
    this.active[index] = false;
    this.events.stopped(index);
    const watchdogs = this.byNode[index];
    if (watchdogs) for (const watchdog of watchdogs) watchdog.stop();
  }

  stopAll(): void {
    for (const watchdog of this.runLevel) watchdog.stop();
    for (let index = 0; index < this.active.length; index++) if (this.active[index]) this.stop(index);
  }

  /** A node changed state: its watched ancestors (and itself) saw a change below. Only flags; afterStep stamps. */
  changedAt(node: CompiledNode): void {
    const watchedBy = node.watchedBy;
    for (let i = 0; i < watchedBy.length; i++) this.changedBelow[watchedBy[i]!] = true;
  }

  /** Whether afterStep has work: a change to stamp or watchdogs to arm. */
  pending(changed: boolean): boolean {
    return changed || this.armAfterStep;
  }

  /**
   * After a step: stops watched nodes that never ran (a start below them that
   * an outer guard cut short), tells maxStateDuration watchdogs that a node
   * below them changed state, and arms the watchdogs that started during the
   * step. One clock read per step replaces one per change.
   */
  afterStep(changed: boolean, isRunning: (index: number) => boolean): void {
    const at = this.clock.now();
    if (changed) this.runStateWatchdog?.stateChanged(at);
    for (const index of this.watched) {
      if (this.active[index] && !isRunning(index)) this.stop(index);
      const changedBelow = this.changedBelow[index];
      this.changedBelow[index] = false;
      const watchdogs = this.active[index] ? this.byNode[index] : undefined;
      if (!watchdogs) continue;
      for (const watchdog of watchdogs) {
        if (changedBelow) watchdog.stateChanged(at);
        if (this.armAfterStep) watchdog.arm();
      }
    }
    this.armAfterStep = false;
  }

  /** The watchdogs a command from this node counts for: the step-level ones and those of its active watchers. */
  over(node: CompiledNode): Watchdog[] {
    const found = [...this.runLevel];
    for (const index of node.watchedBy) {
      const watchdogs = this.byNode[index];
      if (watchdogs && this.active[index]) found.push(...watchdogs);
    }
    return found;
  }
}
