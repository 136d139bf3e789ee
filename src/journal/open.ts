import { JournalOpenError, type Journal } from './journal.js';
import { isPostgresUrl, maskUrl } from './journal-spec.js';
import { SqliteJournal } from './sqlite/sqlite-journal.js';

export { isPostgresUrl, maskUrl } from './journal-spec.js';

export interface OpenJournalOptions {
  /** Open an existing journal only; fail instead of creating a new, empty one (SQLite: the file must exist). */
  mustExist?: boolean;
  /** SQLite only: the journal's wall clock (epoch ms). PostgreSQL always uses the database server's clock. */
  now?: () => number;
}

/**
 * Opens the journal `--journal` names: a PostgreSQL database for a `postgres://` URL (node-postgres, loaded only
 * then), else a SQLite file as always. Fails with a JournalOpenError naming the journal and the fix.
 */
export function openJournal(spec: string, options: OpenJournalOptions = {}): Promise<Journal> {
  try {
    if (isPostgresUrl(spec))
      throw new JournalOpenError(`${maskUrl(spec)}: this verbtree keeps its journal in SQLite only; pass a file path`);
    return Promise.resolve(SqliteJournal.open(spec, options));
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}
