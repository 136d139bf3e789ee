export type IdempotencyState = 'in_flight' | 'completed';

/**
 * Remembers which idempotency keys are in flight or done, so a step is never
 * dispatched twice (FM-05). Shareable between executors of one process.
 */
export class IdempotencyStore {
  private readonly states = new Map<string, IdempotencyState>();

  state(key: string): IdempotencyState | undefined {
    return this.states.get(key);
  }

  /** Claims the key for a new dispatch; false when it is already in flight or completed. */
  claim(key: string): boolean {
    if (this.states.has(key)) return false;
    this.states.set(key, 'in_flight');
    return true;
  }

  complete(key: string): void {
    this.states.set(key, 'completed');
  }

  /** A failed step releases its key so a later, repaired dispatch may run it. */
  release(key: string): void {
    if (this.states.get(key) === 'in_flight') this.states.delete(key);
  }
}
