import type { Expectation } from '../contracts/expectation.js';

export type IdempotencyState = 'in_flight' | 'completed';

/** Who asks for a key: the step as dispatched (args as parsed). */
export interface IdempotencyClaim {
  key: string;
  planId: string;
  stepId: string;
  verb: string;
  args: unknown;
}

/** Who holds a key, and (once completed) the effects it was verified against. */
export interface IdempotencyHolder {
  planId: string;
  stepId: string;
  verb: string;
  args: unknown;
  state: IdempotencyState;
  expectations?: Expectation[];
}

export type ClaimAnswer = { claimed: true } | { claimed: false; holder: IdempotencyHolder };

/**
 * Which idempotency keys are in flight or done, and which step holds each, so
 * a step is never dispatched twice (FM-05 in docs/contract.md). Every call is awaited before the
 * executor goes on: a claim is a durable write where the ledger is journaled.
 */
export interface IdempotencyLedger {
  /** Claims the key for this step, or answers who holds it (in flight, or completed with its expectations). */
  claim(claim: IdempotencyClaim): Promise<ClaimAnswer>;
  /** The step that claimed the key ended verified against these expectations. */
  complete(key: string, expectations: readonly Expectation[]): Promise<void>;
  /** A failed step releases its key so a later, repaired dispatch may run it. */
  release(key: string): Promise<void>;
}

/** The ledger in memory, shareable between the executors of one process. */
export class IdempotencyStore implements IdempotencyLedger {
  protected readonly holders = new Map<string, IdempotencyHolder>();

  state(key: string): IdempotencyState | undefined {
    return this.holders.get(key)?.state;
  }

  claim({ key, planId, stepId, verb, args }: IdempotencyClaim): Promise<ClaimAnswer> {
    const holder = this.holders.get(key);
    if (holder) return Promise.resolve({ claimed: false, holder: { ...holder } });
    this.holders.set(key, { planId, stepId, verb, args, state: 'in_flight' });
    return Promise.resolve({ claimed: true });
  }

  complete(key: string, expectations: readonly Expectation[]): Promise<void> {
    const holder = this.holders.get(key);
    if (holder) this.holders.set(key, { ...holder, state: 'completed', expectations: [...expectations] });
    return Promise.resolve();
  }

  release(key: string): Promise<void> {
    if (this.holders.get(key)?.state === 'in_flight') this.holders.delete(key);
    return Promise.resolve();
  }
}
