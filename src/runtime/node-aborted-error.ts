import type { FailureCode } from '../contracts/failure-codes.js';

/** The reason a leaf's signal fires: which abort (watchdog, guard, shutdown...) and why. */
export class NodeAbortedError extends Error {
  override name = 'AbortError';
  constructor(
    readonly code: FailureCode,
    message: string,
  ) {
    super(message);
  }
}
