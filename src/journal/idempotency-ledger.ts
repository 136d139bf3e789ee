import type { Expectation } from '../contracts/expectation.js';
import type { ClaimAnswer, IdempotencyClaim, IdempotencyLedger } from '../executor/idempotency.js';
import type { Journal } from './journal.js';
import type { Fence } from './rows.js';

/**
 * The executor's idempotency ledger kept in the journal, shared by every process on it: a claim is one durable
 * write that exactly one claimant wins (two workers claiming at once get one winner), a completed key keeps its
 * holder's identity and the effects its step had, so a resumed plan's step with that key is refused as done rather
 * than run twice, and an in-flight claim of a process that died is released by the health check. Under a fence,
 * every write holds only while the bot's lease does.
 */
export class JournalIdempotencyLedger implements IdempotencyLedger {
  constructor(
    private readonly journal: Journal,
    private readonly options: { runnerId: string | null; fence?: Fence },
  ) {}

  claim(claim: IdempotencyClaim): Promise<ClaimAnswer> {
    return this.journal.claimKey({ ...claim, runnerId: this.options.runnerId }, this.options.fence);
  }

  complete(key: string, expectations: readonly Expectation[]): Promise<void> {
    return this.journal.completeKey(key, expectations, this.options.fence);
  }

  release(key: string): Promise<void> {
    return this.journal.releaseKey(key, this.options.fence);
  }
}
