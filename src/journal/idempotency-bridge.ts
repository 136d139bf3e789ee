import { IdempotencyStore } from '../executor/idempotency.js';
import type { IdempotencyLedger } from './idempotency-types.js';
import type { Journal } from './journal.js';
import type { JournalRecorder } from './recorder.js';

/**
 * A stand-in until the executor takes the async IdempotencyLedger (the executor's branch): its synchronous store,
 * with completed keys read from the journaled ledger at assembly and each completion written to it in order with
 * the step's events (claimed and completed, with the step's identity and expectations). In-flight claims stay in
 * memory, as before. At the merge the executor takes the ledger itself and this file goes.
 */
export class LedgerBackedStore extends IdempotencyStore {
  private constructor(
    private readonly ledger: IdempotencyLedger,
    private readonly recorder: JournalRecorder,
  ) {
    super();
  }

  static async create(
    journal: Journal,
    ledger: IdempotencyLedger,
    recorder: JournalRecorder,
  ): Promise<IdempotencyStore> {
    const store = new LedgerBackedStore(ledger, recorder);
    for (const key of await journal.completedKeys()) {
      store.claimInMemory(key);
      store.completeInMemory(key);
    }
    return store;
  }

  private claimInMemory(key: string): void {
    super.claim(key);
  }

  private completeInMemory(key: string): void {
    super.complete(key);
  }

  override complete(key: string): void {
    const step = this.recorder.stepWithKey(key);
    super.complete(key);
    if (!step) return;
    const { planId, stepId, verb, args, expectations } = step;
    this.recorder.enqueue(async () => {
      await this.ledger.claim({ key, planId, stepId, verb, args });
      await this.ledger.complete(key, expectations);
    });
  }
}
