import type { WatchdogKind } from './watchdog-spec.js';
import type { TreeFailure, TreeOutcome } from './outcome.js';

export type NodeState = 'ready' | 'running' | 'succeeded' | 'failed';

interface RunEvent {
  runId: number;
  tree: string;
  /** Clock time of the event. */
  at: number;
}

export interface NodeStateEvent extends RunEvent {
  nodePath: string;
  nodeType: string;
  from: NodeState;
  to: NodeState;
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
}

export interface RunEndEvent extends RunEvent {
  startedAt: number;
  outcome: TreeOutcome;
  /** Actuator commands still in flight when the run gave up waiting for them (should be 0). */
  liveActuators: number;
}

/** Observers attached from outside the tree; none of them can change a run. */
export interface RuntimeHooks {
  nodeState?(event: NodeStateEvent): void;
  watchdogTrip?(event: WatchdogTripEvent): void;
  actuate?(event: ActuationEvent): void;
  progress?(event: ProgressEvent): void;
  runEnd?(event: RunEndEvent): void;
}
