import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { PostgresJournal } from '../../src/journal/postgres/postgres-journal.js';
import { clientWithReadTimeout } from '../../src/journal/postgres/read-timeout.js';
import { rawClient } from '../helpers/postgres.js';
import { usePostgres } from '../helpers/use-postgres.js';

/*
 * Issue 34: a worker whose event loop ran seconds late (the crowd of 150 on three workers, loops 3 to 4.7 s late)
 * failed journal writes with node-postgres's "Query read timeout" though PostgreSQL had answered: the timeout's timer
 * fires before the loop reads the answer that came meanwhile. A late loop slows a write down; only an answer that
 * never came times it out.
 */

const cluster = usePostgres();

const READ_TIMEOUT_MS = 200;
/**
 * The loop is held ten times the read timeout: PostgreSQL answers a statement sent before the hold within it (a
 * database that took longer to answer a SELECT would be a timeout, rightly).
 */
const HOLD_MS = 10 * READ_TIMEOUT_MS;

/**
 * The event loop held, as a worker's is by a burst of its bots' work: no timer, no I/O runs meanwhile. The thread
 * blocks on Atomics.wait (nothing ever notifies it), so the test reads no clock and measures nothing.
 */
function holdTheLoop(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

async function outcome(answer: Promise<unknown>): Promise<string> {
  return answer.then(
    () => 'answered',
    (error: unknown) => String(error),
  );
}

describe('a PostgreSQL read timeout on a late event loop', () => {
  it("node-postgres's own query_timeout fails a statement answered while the loop was held (the hazard)", async () => {
    const client = new pg.Client({ connectionString: await cluster.database(), query_timeout: READ_TIMEOUT_MS });
    await client.connect();
    try {
      const answer = outcome(client.query('SELECT 1'));
      holdTheLoop(HOLD_MS);
      expect(await answer).toMatch(/Query read timeout/);
    } finally {
      await client.end();
    }
  });

  it('the journal’s client reads the answer that came while the loop was held, and times out only a silence', async () => {
    const Client = clientWithReadTimeout(READ_TIMEOUT_MS);
    const client = new Client({ connectionString: await cluster.database() });
    await client.connect();
    try {
      const answer = outcome(client.query('SELECT 1'));
      holdTheLoop(HOLD_MS);
      expect(await answer).toBe('answered');
      // The loop free: a statement that answers later than the limit still fails, once.
      expect(await outcome(client.query('SELECT pg_sleep(1)'))).toMatch(/Query read timeout: no answer in 200 ms/);
    } finally {
      await client.end().catch(() => undefined);
    }
  });

  it('a journal write whose answer came while its worker’s loop was held is written, not failed', async () => {
    const url = await cluster.database();
    const journal = await PostgresJournal.open(url, { queryTimeoutMs: READ_TIMEOUT_MS, poolSize: 1 });
    const raw = await rawClient(url);
    const watcher = await rawClient(url);
    try {
      await journal.addBot({ name: 'ann' });
      // The write waits on the server for a lock the test holds, past its read timeout with the loop free: a wait for
      // a lock is an answer not yet given, so the test lets it go within the limit.
      await raw.query('BEGIN; LOCK TABLE bots IN ACCESS EXCLUSIVE MODE');
      const written = outcome(journal.addBot({ name: 'bob' }));
      await waitUntilBlocked(watcher);
      // COMMIT is sent at once (the raw client is idle), then the loop is held: the lock goes, the write is answered,
      // and its answer waits unread past the read timeout.
      const committed = raw.query('COMMIT');
      holdTheLoop(HOLD_MS);
      await committed;
      expect(await written).toBe('answered');
      expect((await journal.listBots()).map((b) => b.name)).toEqual(['ann', 'bob']);
    } finally {
      await raw.end();
      await watcher.end();
      await journal.close();
    }
  });
});

/** Until a session of the journal waits for a lock (pg_stat_activity's wait_event_type 'Lock'). */
async function waitUntilBlocked(watcher: pg.Client): Promise<void> {
  for (;;) {
    const { rows } = await watcher.query<{ n: string }>(
      "SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'verbtree' AND wait_event_type = 'Lock'",
    );
    if (Number(rows[0]!.n) > 0) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
