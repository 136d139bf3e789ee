/**
 * The closed set of failure codes a step can end with. Every failure verbtree
 * reports carries exactly one of these, so a planner can switch on it.
 */
export const FAILURE_CODES = {
  unknown_verb: { retryable: false, meaning: 'The step names a verb no registered capability provides.' },
  version_unsatisfied: {
    retryable: false,
    meaning: "The verb exists, but no registered version satisfies the step's version range.",
  },
  schema_violation: {
    retryable: false,
    meaning: "The step or its arguments do not match the contract (plan shape or the capability's input schema).",
  },
  not_runnable: { retryable: false, meaning: 'The capability is registered but has no runner in this build.' },
  guard_failed: { retryable: false, meaning: "The capability's guard refused the step in the current world state." },
  precondition_missing: {
    retryable: true,
    meaning: 'A declared precondition does not hold; a sub-goal may satisfy it.',
  },
  ttfa_exceeded: {
    retryable: true,
    meaning: 'No actuator command was issued within the time-to-first-action limit after dispatch.',
  },
  state_timeout: {
    retryable: true,
    meaning: 'A tree node stayed RUNNING with no state change below it past its maxStateDuration.',
  },
  'stuck.loop': {
    retryable: true,
    meaning: 'No actuator command was issued for longer than the no-actuator limit while the step was active.',
  },
  'stuck.position': { retryable: true, meaning: 'A movement capability was active but the bot did not move.' },
  'stuck.progress': { retryable: true, meaning: 'The capability reported no progress for longer than its limit.' },
  'stuck.path': { retryable: true, meaning: 'Pathfinding failed (no path or timeout) several times in a row.' },
  'stuck.flap': { retryable: true, meaning: 'The path flapped between reached and stopped without net displacement.' },
  hanging_invocation: { retryable: true, meaning: "A runner's promise stayed outstanding past its deadline." },
  deadline_exceeded: { retryable: false, meaning: 'The step (or plan) ran past its deadline.' },
  effects_unmet: {
    retryable: true,
    meaning: 'The runner finished but acceptance found expected effects missing in the world.',
  },
  runner_error: { retryable: true, meaning: "The capability's runner threw or rejected." },
  no_path: { retryable: true, meaning: 'The navigation target cannot be reached from here.' },
  aborted: { retryable: false, meaning: 'The step was cancelled by its caller (AbortSignal) or by shutdown.' },
  preempted: {
    retryable: true,
    meaning: 'A higher-priority (safety or urgent) step took over; the step may be resumed.',
  },
  duplicate_dispatch: {
    retryable: false,
    meaning:
      'The step did not start: its idempotency key is in flight, was completed by a step that asked for something else, or was completed but its effects no longer hold.',
  },
  escalation_exhausted: {
    retryable: false,
    meaning: 'Local repair and every planner escalation were used up without success.',
  },
  intent_refused: {
    retryable: false,
    meaning: 'The intent was refused before any step was dispatched (safety.allowed is false).',
  },
  world_disconnected: { retryable: true, meaning: 'The connection to the world (server) dropped during the step.' },
  world_unresponsive: {
    retryable: true,
    meaning: 'The world stopped answering: an observation of its truth did not come back within its limit.',
  },
  planner_error: {
    retryable: false,
    meaning:
      'The planner threw, rejected, never answered within its limit, or answered with something that is not a plan or a give-up.',
  },
  journal_unavailable: {
    retryable: false,
    meaning: 'The journal could not record the step durably (database unreachable): the step did not act.',
  },
  lease_lost: {
    retryable: false,
    meaning: 'This worker lost its lease on the bot (another worker may hold it now): it stopped acting and writing.',
  },
  hazard: {
    retryable: false,
    meaning: 'The bot is in a hazard (lava, fire, a deadly drop) and could not get out; the detail names it.',
  },
  died: {
    retryable: false,
    meaning:
      'The bot died during the step (it respawns at its spawn point, its pack usually dropped where it died): the step ends failed, never ok, and the plan goes back to its planner.',
  },
  retracted: {
    retryable: false,
    meaning:
      'The step had succeeded, but a server restart rolled its effect back: found gone when the bot rejoined, its idempotency key released (a running plan redoes it).',
  },
} as const satisfies Record<string, { retryable: boolean; meaning: string }>;

export type FailureCode = keyof typeof FAILURE_CODES;

export const FAILURE_CODE_LIST = Object.keys(FAILURE_CODES) as FailureCode[];

export function isFailureCode(value: unknown): value is FailureCode {
  return typeof value === 'string' && Object.hasOwn(FAILURE_CODES, value);
}

export function isRetryableByDefault(code: FailureCode): boolean {
  return FAILURE_CODES[code].retryable;
}
