import { describe, expect, it } from 'vitest';
import { PostgresJournal } from '../../src/journal/postgres/postgres-journal.js';
import { rawClient } from '../helpers/postgres.js';
import { usePostgres } from '../helpers/use-postgres.js';

/*
 * Issue 34: at 300 bots a worker's journal writes waited for a connection of its busy pool past pg-pool's 10 s
 * connection timeout, failed, and failed their runs. A write that finds the pool busy waits its turn; only opening a
 * connection is bounded.
 */

const cluster = usePostgres();

const CONNECT_TIMEOUT_MS = 200;

describe('a journal write that finds the PostgreSQL pool busy', () => {
  it('waits for a connection however long the others hold it, and is written once it has one', async () => {
    const url = await cluster.database();
    const journal = await PostgresJournal.open(url, { poolSize: 1, connectTimeoutMs: CONNECT_TIMEOUT_MS });
    const raw = await rawClient(url);
    try {
      // The pool's one connection is held by a write waiting for a lock the test holds on the table it writes.
      await raw.query('BEGIN; LOCK TABLE bots IN ACCESS EXCLUSIVE MODE');
      const holding = journal.addBot({ name: 'ann' });
      const waiting = [journal.addBot({ name: 'bob' }), journal.listBots()];
      const outcomes = Promise.allSettled([holding, ...waiting]);
      // Five times the pool's connect limit: the writes queued behind the held connection wait through it (a wall-clock
      // wait, as pg-pool's limit is; nothing here measures a time).
      await new Promise((resolve) => setTimeout(resolve, 5 * CONNECT_TIMEOUT_MS));
      await raw.query('COMMIT');
      const settled = await outcomes;
      expect(settled.map((s) => (s.status === 'rejected' ? String(s.reason) : 'written'))).toEqual([
        'written',
        'written',
        'written',
      ]);
      expect((await journal.listBots()).map((b) => b.name)).toEqual(['ann', 'bob']);
    } finally {
      await raw.end();
      await journal.close();
    }
  });
});
