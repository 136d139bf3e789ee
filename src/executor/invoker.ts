import type { Clock } from '../contracts/clock.js';
import type { FailureCode } from '../contracts/failure-codes.js';
import type { WorldPort } from '../contracts/world.js';
import type { AnyCapabilitySpec, ProgressNote } from '../registry/capability-spec.js';
import type { TreeRecovery } from './tree-recoveries.js';

/** Step-level watchdog limits for one attempt. */
export interface AttemptLimits {
  ttfaMs: number;
  noActuatorMs: number;
  maxStateDurationMs: number;
  /** The step's expected duration (its own, or the capability's for its arguments). */
  expectedDurationMs: number;
}

export interface AttemptRequest {
  spec: AnyCapabilitySpec;
  args: unknown;
  world: WorldPort;
  clock: Clock;
  /** Fires when the executor cancels the attempt (preemption, deadline, stuck, shutdown). */
  signal: AbortSignal;
  limits: AttemptLimits;
  /** Called as each actuator command starts and settles. */
  onActuatorStart: (command: string) => void;
  onActuatorSettled: (command: string) => void;
  /** Called when the capability's tree retries a failed command or makes an unstuck move inside the attempt. */
  onTreeRecovery?: (recovery: TreeRecovery) => void;
  /** The capability's progress reports (`ctx.progress`), with what they count. */
  onProgress: (done: number, total?: number, note?: ProgressNote) => void;
}

export type AttemptOutcome =
  | { ok: true }
  | { ok: false; code: FailureCode; detail: string; nodePath?: string; limitMs?: number; measuredMs?: number };

/**
 * Runs one attempt of a capability. When the returned promise settles, no
 * actuator the attempt started is still live.
 */
export interface StepInvoker {
  invoke(request: AttemptRequest): Promise<AttemptOutcome>;
}
