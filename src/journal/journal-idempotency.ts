import type { Expectation } from '../contracts/expectation.js';
import { IdempotencyStore } from '../executor/idempotency.js';
import type { Journal } from './journal.js';

interface CompletedKeyRow {
  key: string;
  plan_id: string | null;
  step_id: string | null;
  verb: string | null;
  args: string | null;
  expectations: string | null;
}

/**
 * An IdempotencyStore whose completed keys live in the journal: a key
 * completed before a crash stays completed after it, with the step that holds
 * it (its verb, arguments and expectations, as the journal's step row keeps
 * them), so a resumed plan's step with that key is checked as done rather than
 * run twice. In-flight claims stay in memory: they die with the process that made them.
 */
export class JournalIdempotencyStore extends IdempotencyStore {
  constructor(private readonly journal: Journal) {
    super();
    const rows = journal
      .sql(
        'SELECT i.key, i.plan_id, i.step_id, s.verb, s.args, s.expectations FROM idempotency i LEFT JOIN steps s ON s.plan_id = i.plan_id AND s.step_id = i.step_id',
      )
      .all() as CompletedKeyRow[];
    for (const row of rows) {
      this.holders.set(row.key, {
        planId: row.plan_id ?? '(unknown plan)',
        stepId: row.step_id ?? '(unknown step)',
        verb: row.verb ?? '(unknown verb)',
        args: row.args === null ? null : (JSON.parse(row.args) as unknown),
        state: 'completed',
        ...(row.expectations === null ? {} : { expectations: JSON.parse(row.expectations) as Expectation[] }),
      });
    }
  }

  override complete(key: string, expectations: readonly Expectation[]): Promise<void> {
    const step = this.journal
      .sql("SELECT plan_id, step_id FROM steps WHERE idempotency_key = ? AND status = 'in_progress'")
      .get(key) as { plan_id: string; step_id: string } | undefined;
    this.journal
      .sql('INSERT OR IGNORE INTO idempotency (key, plan_id, step_id, completed_at) VALUES (?, ?, ?, ?)')
      .run(key, step?.plan_id ?? null, step?.step_id ?? null, this.journal.now());
    return super.complete(key, expectations);
  }
}
