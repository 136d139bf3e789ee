import type { WatchdogKind } from './watchdog-spec.js';
import type { TreeFailure, TreeOutcome } from './outcome.js';

export const NODE_STATES = ['ready', 'running', 'succeeded', 'failed'] as const;
export type NodeState = (typeof NODE_STATES)[number];

/** What every event of one tree run carries: the run, its tree, and when. */
export interface RunEvent {
  runId: number;
  tree: string;
  /** Clock time of the event. */
  at: number;
}

/** One node's change of state. Interned per tree node, so events share them and listeners may keep them. */
export interface NodeStateChange {
  readonly nodePath: string;
  readonly nodeType: string;
  readonly from: NodeState;
  readonly to: NodeState;
}

/**
 * Every node state change of one step of a run, in the order they happened.
 * A step takes no clock time, so they all happen at `at`; one event per step
 * keeps observing a run nearly free (about 22 changes per step of an 11-node tree).
 */
export interface NodeStatesEvent extends RunEvent {
  changes: readonly NodeStateChange[];
}

export interface WatchdogTripEvent extends RunEvent {
  kind: WatchdogKind;
  failure: TreeFailure & { nodePath: string; limitMs: number; measuredMs: number };
}

export interface ActuationEvent extends RunEvent {
  nodePath: string;
  command: string;
}

export interface ProgressEvent extends RunEvent {
  nodePath: string;
  done: number;
  total?: number;
  /** What the leaf counts and where it stands, as it said (`ctx.progress`'s note). */
  unit?: string;
  detail?: string;
  /** false: not for the progress detector to judge (see ProgressNote.judged). */
  judged?: boolean;
}

export interface RunEndEvent extends RunEvent {
  startedAt: number;
  outcome: TreeOutcome;
  /** Actuator commands still in flight when the run gave up waiting for them (should be 0). */
  liveActuators: number;
}

/** Observers attached from outside the tree; none of them can change a run. Each is called without `this`. */
export interface RuntimeHooks {
  nodeStates?: (event: NodeStatesEvent) => void;
  watchdogTrip?: (event: WatchdogTripEvent) => void;
  actuate?: (event: ActuationEvent) => void;
  progress?: (event: ProgressEvent) => void;
  runEnd?: (event: RunEndEvent) => void;
}

/** Several observers as one: each hook calls every observer that has it, in order. */
export function mergeHooks(...all: (RuntimeHooks | undefined)[]): RuntimeHooks {
  const present = all.filter((hooks): hooks is RuntimeHooks => hooks !== undefined);
  const merged: RuntimeHooks = {};
  for (const name of ['nodeStates', 'watchdogTrip', 'actuate', 'progress', 'runEnd'] as const) {
    const listeners = present.filter((hooks) => hooks[name] !== undefined);
    if (listeners.length === 0) continue;
    merged[name] = ((event: never) => {
      for (const hooks of listeners) (hooks[name] as (event: never) => void).call(hooks, event);
    }) as never;
  }
  return merged;
}
