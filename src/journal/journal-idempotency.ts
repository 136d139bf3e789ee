import { IdempotencyStore } from '../executor/idempotency.js';
import type { Journal } from './journal.js';

/**
 * An IdempotencyStore whose completed keys live in the journal: a key
 * completed before a crash stays completed after it, so a resumed plan's step
 * with that key is refused as already done rather than run twice. In-flight
 * claims stay in memory: they die with the process that made them.
 */
export class JournalIdempotencyStore extends IdempotencyStore {
  constructor(private readonly journal: Journal) {
    super();
    const rows = journal.sql('SELECT key FROM idempotency').all() as { key: string }[];
    for (const { key } of rows) {
      super.claim(key);
      super.complete(key);
    }
  }

  override complete(key: string): void {
    const step = this.journal
      .sql("SELECT plan_id, step_id FROM steps WHERE idempotency_key = ? AND status = 'in_progress'")
      .get(key) as { plan_id: string; step_id: string } | undefined;
    this.journal
      .sql('INSERT OR IGNORE INTO idempotency (key, plan_id, step_id, completed_at) VALUES (?, ?, ?, ?)')
      .run(key, step?.plan_id ?? null, step?.step_id ?? null, this.journal.now());
    super.complete(key);
  }
}
