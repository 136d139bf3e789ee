import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { Journal } from '../../src/journal/journal.js';
import { openJournal } from '../../src/journal/open.js';
import { pgProxy } from '../helpers/pg-proxy.js';
import { rawClient } from '../helpers/postgres.js';
import { usePostgres } from '../helpers/use-postgres.js';

/*
 * What a fleet worker cut off from PostgreSQL mid-transaction leaves on the server: a session idle in its transaction,
 * holding that transaction's row locks (its fence check's share lock on the bot's lease row, the rows it wrote) for
 * as long as the network is cut. The bot's next holder must get the bot all the same.
 */

const cluster = usePostgres();

/** Sessions of the database waiting for a lock now. */
async function lockWaits(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
  );
  return rows[0]!.n;
}

/** Polls `read` until it gives true, for at most `limitMs`; whether it did. */
async function eventually(read: () => Promise<boolean>, limitMs = 20_000): Promise<boolean> {
  for (const started = Date.now(); Date.now() - started < limitMs;)
    if (await read()) return true;
    else await new Promise((resolve) => setTimeout(resolve, 20));
  return false;
}

/** The bot's lease, claimed by w1 and already expired, so that any other worker may claim it. */
async function expiredLease(journal: Journal, raw: pg.Client, bot: string): Promise<void> {
  await journal.addBot({ name: bot });
  expect(await journal.claimBot(bot, 'w1', 60_000)).toBe(1);
  await raw.query('UPDATE bot_leases SET expires_at = expires_at - 120000 WHERE bot = $1', [bot]);
}

describe('a claim and the row locks of a holder cut off from the database', () => {
  it.each(['FOR SHARE', 'FOR NO KEY UPDATE'])(
    'a claim never waits for an expired lease row locked %s by another session (a fence check, a renewal): it skips the bot, and takes it once the lock is gone',
    async (mode) => {
      const url = await cluster.database();
      const journal = await openJournal(url);
      const raw = await rawClient(url);
      try {
        await expiredLease(journal, raw, 'ann');
        // What a cut-off worker's transaction left: the lease row locked as its fence check (or its renewal) locks it.
        const stale = await rawClient(url);
        await stale.query('BEGIN');
        await stale.query(`SELECT bot FROM bot_leases WHERE bot = 'ann' ${mode}`);
        let settled = false;
        const claim = journal.claimBot('ann', 'w2', 60_000).finally(() => (settled = true));
        // Either the claim answers, or it is seen waiting for the lock (as it did before: until the lock went).
        const waited = await eventually(async () => settled || (await lockWaits(raw)) > 0);
        const queued = !settled && waited;
        await stale.query('ROLLBACK');
        await stale.end();
        expect(queued, 'the claim waited for the locked lease row').toBe(false);
        expect(await claim).toBeNull();
        expect(await journal.claimBot('ann', 'w2', 60_000)).toBe(2);
      } finally {
        await raw.end();
        await journal.close();
      }
    },
  );

  it("a holder's renewal never waits for its own fenced write in flight, and no claim passes that write", async () => {
    const url = await cluster.database();
    const journal = await openJournal(url);
    const raw = await rawClient(url);
    try {
      await journal.addBot({ name: 'ann' });
      expect(await journal.claimBot('ann', 'w1', 60_000)).toBe(1);
      // A fenced write of w1 under way: its fence check done (the journal's own statement), its transaction still open.
      const writer = await rawClient(url);
      await writer.query('BEGIN');
      // The journal's own fence check, which fails the transaction when the lease has moved on.
      await writer.query('SELECT verbtree_fence($1, $2)', ['ann', 1]);
      let settled = false;
      const renewal = journal.renewLeases('w1', 60_000).finally(() => (settled = true));
      const waited = await eventually(async () => settled || (await lockWaits(raw)) > 0);
      const queued = !settled && waited;
      if (queued) {
        await writer.query('COMMIT');
        await writer.end();
        expect(queued, 'the renewal waited for the fenced write').toBe(false);
      }
      // Expired meanwhile, the lease is still no claim's while the write is open: the claim skips the bot.
      await raw.query("UPDATE bot_leases SET expires_at = expires_at - 120000 WHERE bot = 'ann'");
      const claimDuringWrite = await journal.claimBot('ann', 'w2', 60_000);
      await writer.query('COMMIT');
      await writer.end();
      expect(await renewal).toEqual([{ bot: 'ann', epoch: 1 }]);
      expect(claimDuringWrite).toBeNull();
      expect(await journal.claimBot('ann', 'w2', 60_000)).toBe(2);
    } finally {
      await raw.end();
      await journal.close();
    }
  });

  it("a worker's transaction cut off between two statements is ended by the server within its idle limit: its locks go, its write never lands, and the next holder claims the bot", async () => {
    const url = await cluster.database();
    const proxy = await pgProxy(cluster.port);
    const cutOff = await openJournal(url.replace(`:${cluster.port}/`, `:${proxy.port}/`), {
      idleInTransactionTimeoutMs: 300,
    });
    const journal = await openJournal(url);
    const raw = await rawClient(url);
    try {
      await journal.addBot({ name: 'bea' });
      const fence = { bot: 'bea', epoch: (await cutOff.claimBot('bea', 'cut', 60_000))! };
      await journal.enqueuePlan({ planId: 'p', intentId: 'i', bot: 'bea', body: {} });
      // The cut-off worker's claim of the bot's queued plan, three round trips (the plan read, its update to running,
      // the COMMIT): its transaction opens, and its fence check, sent with the read, waits for the lease row another
      // session holds…
      await raw.query('BEGIN');
      await raw.query("SELECT bot FROM bot_leases WHERE bot = 'bea' FOR UPDATE");
      const write = cutOff.claimNextPlan(fence).then(
        () => 'written',
        () => 'lost',
      );
      const other = await rawClient(url);
      expect(await eventually(async () => (await lockWaits(other)) === 1)).toBe(true);
      // …the network goes, then the lease row is free: the check and the read are done and hold the lease row's lock,
      // their answer lost in the cut, so the update and COMMIT never come.
      proxy.cut();
      await raw.query('COMMIT');
      // The server ends that session once it has been idle in its transaction past the limit; before, it held on.
      const locked = async () =>
        (
          await other.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE c.relname IN ('bot_leases', 'plans') AND l.mode IN ('RowShareLock', 'RowExclusiveLock') AND l.pid <> pg_backend_pid()",
          )
        ).rows[0]!.n > 0;
      expect(await eventually(async () => !(await locked())), 'the cut-off session kept its locks').toBe(true);
      await other.end();
      await raw.query('UPDATE bot_leases SET expires_at = expires_at - 120000 WHERE bot = $1', ['bea']);
      expect(await journal.claimBot('bea', 'next', 60_000)).toBe(2);
      proxy.heal();
      expect(await write).toBe('lost');
      expect((await journal.plan('p'))?.status).toBe('queued');
    } finally {
      proxy.heal();
      await raw.end();
      await cutOff.close();
      await journal.close();
      proxy.close();
    }
  });
});
