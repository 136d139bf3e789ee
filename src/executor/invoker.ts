import type { Clock } from '../contracts/clock.js';
import type { FailureCode } from '../contracts/failure-codes.js';
import type { WorldPort } from '../contracts/world.js';
import type { AnyCapabilitySpec } from '../registry/capability-spec.js';

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
  onProgress: (done: number, total?: number) => void;
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
