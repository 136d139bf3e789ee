import type { FailureCode } from '../contracts/failure-codes.js';
import type { Vec3Like } from '../contracts/world.js';

/** Every way an agent can be stuck that verbtree detects. */
export const STUCK_TYPES = [
  'position',
  'state',
  'progress',
  'path',
  'flap',
  'no_actuator',
  'heartbeat',
  'hanging',
] as const;
export type StuckType = (typeof STUCK_TYPES)[number];

/**
 * The FailureCode a step fails with when a stuck condition is not recovered.
 * `heartbeat` has none: when the executor's own loop stops, there is no live loop
 * to fail the step, so the watcher reports a zombie incident instead.
 */
export const STUCK_FAILURE_CODES: Readonly<Record<StuckType, FailureCode | null>> = {
  position: 'stuck.position',
  state: 'state_timeout',
  progress: 'stuck.progress',
  path: 'stuck.path',
  flap: 'stuck.flap',
  no_actuator: 'stuck.loop',
  heartbeat: null,
  hanging: 'hanging_invocation',
};

export type Evidence = Record<string, number | string | boolean | null>;

/** One tripped detector. Allocated only when a detector trips, never per tick. */
export interface Detection {
  readonly type: StuckType;
  readonly failureCode: FailureCode | null;
  /** True only for `heartbeat`: the executor's loop stopped (a zombie), reported from outside it. */
  readonly zombie: boolean;
  readonly reason: string;
  /** Where the agent was; detectors that do not track position leave it to the monitor to fill in. */
  position: Vec3Like | null;
  /** When the condition began (the anchor the threshold is measured from). */
  readonly since: number;
  readonly detectedAt: number;
  readonly evidence: Evidence;
}

export function createDetection(
  type: StuckType,
  reason: string,
  since: number,
  detectedAt: number,
  evidence: Evidence,
  position: Vec3Like | null = null,
): Detection {
  return {
    type,
    failureCode: STUCK_FAILURE_CODES[type],
    zombie: type === 'heartbeat',
    reason,
    position,
    since,
    detectedAt,
    evidence,
  };
}

/** Rounds for human-readable reasons and evidence (no float noise like 0.30000000000000004). */
export function round(value: number, digits = 3): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
