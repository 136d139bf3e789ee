import type { ValidationIssue } from '../validate/issue.js';

/**
 * Why an operation refused, whatever carried the request: each transport answers a kind in its own way
 * (HTTP a status, MCP a tool error), from the one error.
 */
export const OPERATION_ERROR_KINDS = {
  /** An argument is malformed or out of range; the message names the field and what it takes. */
  invalid: 'an argument is malformed or out of range',
  /** A plan or replacement was read but does not validate; `issues` lists every problem. */
  rejected: 'the plan does not validate',
  /** No such bot, live run or journaled plan. */
  not_found: 'no such bot, run or plan',
  /** The request would change nothing (pausing a paused plan), or collides with a run that holds the plan. */
  conflict: 'the state of the run or plan refuses it',
  /** Nothing here can do it now: no bot is attached, or the journal it needs is down (`retryAfterSeconds`: when to ask again). */
  unavailable: 'no bot is attached to do it, or the journal it needs is down',
} as const;

export type OperationErrorKind = keyof typeof OPERATION_ERROR_KINDS;

/** Operations a message may send the caller to next; each transport names them its own way (a route, a tool). */
export type OperationName = 'listBots' | 'listRuns';

export interface OperationErrorDetails {
  /** The argument at fault, when one is. */
  field?: string;
  /** Every problem of a plan or replacement that does not validate, each with its path, code and fix. */
  issues?: ValidationIssue[];
  /** The operation that shows what exists (the bots, the runs): a transport appends its own name for it. */
  see?: OperationName;
  [key: string]: unknown;
}

/** What an operation throws when it refuses: a kind, a message naming the field and the fix, and structured details. */
export class OperationError extends Error {
  override name = 'OperationError';
  constructor(
    readonly kind: OperationErrorKind,
    message: string,
    readonly details: OperationErrorDetails = {},
  ) {
    super(message);
  }
}

export const isOperationError = (error: unknown): error is OperationError => error instanceof OperationError;

/** A whole number in [min, max], or the default when absent; anything else is `invalid`, naming the field. */
export function wholeNumber(
  value: number | undefined,
  field: string,
  range: { min: number; max: number; fallback: number },
): number {
  if (value === undefined) return range.fallback;
  if (!Number.isInteger(value) || value < range.min || value > range.max)
    throw new OperationError(
      'invalid',
      `${field} must be a whole number from ${range.min}${range.max < Number.MAX_SAFE_INTEGER ? ` to ${range.max}` : ''}, got ${value}`,
      { field },
    );
  return value;
}

/** A plan the journal does not hold. */
export const noJournaledPlan = (planId: string) =>
  new OperationError('not_found', `no plan "${planId}" in the journal; the runs list names the journaled plans`, {
    field: 'planId',
    see: 'listRuns',
  });

/** A control action on a plan no run of this process holds and no fleet bot was queued. */
export const noLiveRun = (planId: string) =>
  new OperationError(
    'not_found',
    `this server is running no plan "${planId}"; the runs list names the journaled ones`,
    { field: 'planId', see: 'listRuns' },
  );
