import type { FailureCode } from '../contracts/failure-codes.js';

/** How a tree run ended. Failures are structured: a code a planner can switch on, and where/why. */
export type TreeOutcome =
  | { ok: true }
  | { ok: false; code: FailureCode; detail: string; nodePath?: string; limitMs?: number; measuredMs?: number };

export type TreeFailure = Extract<TreeOutcome, { ok: false }>;
