import type { Journal } from './journal.js';
import type { JournalTiming } from './postgres/postgres-journal.js';
import { isPostgresUrl } from './journal-spec.js';
import { SqliteJournal } from './sqlite/sqlite-journal.js';

export { isPostgresUrl, maskUrl } from './journal-spec.js';

export interface OpenJournalOptions {
  /** Open an existing journal only; fail instead of creating a new, empty one (a file, or a database's tables). */
  mustExist?: boolean;
  /** SQLite only: the journal's wall clock (epoch ms). PostgreSQL always uses the database server's clock. */
  now?: () => number;
  /** PostgreSQL only: a statement with no answer this long fails (see PostgresJournalOptions). */
  queryTimeoutMs?: number;
  /** PostgreSQL: how many connections the journal's pool opens at most for its writes and reads (default 10). */
  poolSize?: number;
  /** PostgreSQL only: the server ends a transaction left idle this long (see PostgresJournalOptions). */
  idleInTransactionTimeoutMs?: number;
  /** PostgreSQL only: told each transaction's times (see PostgresJournalOptions). */
  observe?: (timing: JournalTiming) => void;
}

/**
 * Opens the journal `--journal` names: a PostgreSQL database for a `postgres://` URL (node-postgres, loaded only
 * then), else a SQLite file as always. Fails with a JournalOpenError naming the journal and the fix.
 */
export async function openJournal(spec: string, options: OpenJournalOptions = {}): Promise<Journal> {
  if (isPostgresUrl(spec)) {
    const { PostgresJournal } = await import('./postgres/postgres-journal.js');
    return PostgresJournal.open(spec, {
      mustExist: options.mustExist === true,
      ...(options.queryTimeoutMs ? { queryTimeoutMs: options.queryTimeoutMs } : {}),
      ...(options.poolSize ? { poolSize: options.poolSize } : {}),
      ...(options.idleInTransactionTimeoutMs ? { idleInTransactionTimeoutMs: options.idleInTransactionTimeoutMs } : {}),
      ...(options.observe ? { observe: options.observe } : {}),
    });
  }
  return SqliteJournal.open(spec, options);
}
