/** A plan cannot start as asked: the journal holds it unfinished, or another process holds it. */
export class PlanConflictError extends Error {
  override name = 'PlanConflictError';
}

/** Another live process holds the plan: a second run or resume of it must not act. */
export class LeaseHeldError extends PlanConflictError {
  override name = 'LeaseHeldError';
}
