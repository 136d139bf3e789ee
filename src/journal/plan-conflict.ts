/** A plan cannot start as asked: the journal holds it unfinished, or another process holds it. */
export class PlanConflictError extends Error {
  override name = 'PlanConflictError';
}
