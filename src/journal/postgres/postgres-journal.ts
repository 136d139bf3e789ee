import pg from 'pg';
import { maskUrl } from '../journal-spec.js';
import { JournalOpenError, LeaseLostError } from '../journal.js';
import type { Fence } from '../rows.js';
import { SqlJournal, type TxOptions } from '../sql/sql-journal.js';
import { driveAsync, exec, type Op, type Tx } from '../sql/tx.js';
import { answer, inline, sendHeld, type Held } from './simple-query.js';
import type { EventFeedPage } from '../views.js';
import { JOURNAL_TABLES, PG_MIGRATIONS } from './migrations.js';
import { Turns } from './turns.js';
import { watchDropped } from './dropped.js';
import { clientWithReadTimeout } from './read-timeout.js';

/** Advisory lock keys: one migrator at a time, one health sweeper at a time, across every process on the database. */
const MIGRATION_LOCK = 7_467_001;
export const SWEEPER_LOCK = 7_467_002;
/** The SQLSTATE `verbtree_fence` fails a transaction with when the lease no longer carries the write's epoch. */
const FENCE_REFUSED = 'VBL01';

/** bigint (counts, identity ids, epochs) and numeric (sums) arrive as numbers: every one of ours fits in 2^53. */
const NUMERIC_OIDS = new Set([20, 1700]);
const builtin = pg.types.getTypeParser.bind(pg.types) as (
  oid: number,
  format?: 'text' | 'binary',
) => (value: string) => unknown;
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    NUMERIC_OIDS.has(oid) ? Number : builtin(oid, format)) as typeof pg.types.getTypeParser,
};

export interface PostgresJournalOptions {
  /** Connections in the pool (default 10): each journal write holds one for its transaction. */
  poolSize?: number;
  /**
   * Connections kept for lease claims and renewals alone (default 3: a fleet worker's claim, and up to two renewals
   * under way at once), so that none waits for a connection behind the bots' writes.
   */
  leasePoolSize?: number;
  /** Open an existing journal only: refuse a database verbtree has not written to yet. */
  mustExist?: boolean;
  /**
   * Give up on a statement with no answer after this long, judged once the event loop has read what came in
   * (read-timeout.ts: a late loop is no timeout; default: wait). A fleet worker sets it: on a network that drops
   * packets a statement would otherwise wait for TCP to give up, and its connection with it; timed out, the write
   * fails and its connection is discarded. The server gives the statement up as long after (statement_timeout), so
   * none is left running there, holding or awaiting locks, for nobody.
   */
  queryTimeoutMs?: number;
  /**
   * The server ends a session whose transaction stays idle this long (idle_in_transaction_session_timeout), releasing
   * its locks. A fleet worker sets it to its lease: cut off from the database between two statements of a
   * transaction, it would otherwise hold that transaction's row locks (its fence check's share lock on the lease row,
   * the rows it wrote) until the network heals, and the bot's next holder would wait behind them. Not shorter: a
   * worker that is only busy sends its next statement late by as long as its event loop runs late, and every write
   * checks its lease at the database anyway (see checkFence).
   */
  idleInTransactionTimeoutMs?: number;
  /**
   * How long opening a connection may take before the write that needs it fails (default 10 s): a database that does
   * not answer. Waiting for a connection of the pool to come free has no limit: a busy pool slows its writes down,
   * never fails them.
   */
  connectTimeoutMs?: number;
  /** Told of every transaction: which pool, how long it waited for a connection, how long it took in all (ms). */
  observe?: (timing: JournalTiming) => void;
}

/** One transaction's times, for a worker's metrics. */
export interface JournalTiming {
  pool: 'bots' | 'lease';
  waitedMs: number;
  tookMs: number;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

/**
 * The journal in a PostgreSQL database, through node-postgres and its pool. Each domain operation is one
 * transaction, a round trip per statement whose answer it needs (`transact`); a write is durable when its promise resolves (not before: callers that
 * need order await it, as the recorder's queue does). Times come from the database server's clock.
 */
export class PostgresJournal extends SqlJournal {
  readonly backend = 'postgres';
  readonly writesOnCall = false;
  /**
   * `verbtree_fence` (the last migration) locks the lease row FOR KEY SHARE, not FOR SHARE: a claim (its FOR UPDATE
   * SKIP LOCKED) still passes over a bot with a fenced write in flight, so no write of an old epoch lands after a new
   * epoch's claim, but a renewal (an UPDATE of the expiry alone, FOR NO KEY UPDATE) no longer waits for the holder's
   * own open transactions. Under FOR SHARE a worker's renewal waited for each of its bots' transactions on the way
   * (seen in pg_stat_activity during `npm run bench -- fleet --bots 150`: the renewal's UPDATE waiting on
   * transactionid locks of sessions idle in transaction while their busy worker got to its next statement), came back
   * past the fence's share of the lease, and the worker fenced every bot.
   *
   * The check is sent with the transaction's next statement rather than on its own: a lease that moved on fails that
   * query (FENCE_REFUSED) before any statement after the check runs, and `transact` rolls back and throws
   * LeaseLostError. A round trip for its answer alone was a third of a fleet worker's journal round trips.
   */
  protected *checkFence(fence: Fence): Tx<void> {
    yield* exec('SELECT verbtree_fence(?, ?)', fence.bot, fence.epoch);
  }
  protected readonly skipLockedSql = 'FOR UPDATE SKIP LOCKED';
  protected readonly trySweeperSql = `SELECT pg_try_advisory_xact_lock(${SWEEPER_LOCK}) AS got`;
  private readonly names = new Map<string, { name: string; text: string }>();

  /** Turns at the bots' pool: a write that finds every connection busy waits here, in order, with no time limit. */
  private readonly turns: Turns;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly leasePool: pg.Pool,
    readonly location: string,
    private readonly observe?: (timing: JournalTiming) => void,
  ) {
    super();
    this.turns = new Turns(pool.options.max);
  }

  static async open(url: string, options: PostgresJournalOptions = {}): Promise<PostgresJournal> {
    const location = maskUrl(url);
    const pool = newPool(url, options.poolSize ?? 10, options);
    const leasePool = newPool(url, options.leasePoolSize ?? 3, options);
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      await Promise.all([pool.end(), leasePool.end()]).catch(() => undefined);
      throw new JournalOpenError(unreachable(location, error));
    }
    const dropped = watchDropped(client);
    try {
      await migrate(client, location, options.mustExist === true);
    } catch (error) {
      dropped.stop();
      client.release(true);
      await Promise.all([pool.end(), leasePool.end()]).catch(() => undefined);
      throw error instanceof JournalOpenError
        ? error
        : new JournalOpenError(`cannot prepare the journal at ${location}: ${(error as Error).message}`);
    }
    client.release(dropped.stop());
    return new PostgresJournal(pool, leasePool, location, options.observe);
  }

  async schemaVersion(): Promise<number> {
    const { rows } = await this.query<{ version: number }>('SELECT version FROM verbtree_schema');
    return rows[0]!.version;
  }

  /**
   * A connection of the bots' pool (or the lease pool's), and its release. pg-pool would fail a caller that waits for a
   * connection past its connection timeout, as if the database were down (`npm run bench -- fleet --bots 300`: writes
   * that waited for a busy pool failed their runs and fenced their bots); the caller waits for its turn here instead,
   * so that the pool's limit only bounds opening a connection.
   */
  private async checkout(lease: boolean | undefined): Promise<Checkout> {
    const asked = performance.now();
    const timed = (release: (err?: Error) => void) => {
      const got = performance.now();
      return (err?: Error) => {
        release(err);
        this.observe?.({ pool: lease ? 'lease' : 'bots', waitedMs: got - asked, tookMs: performance.now() - asked });
      };
    };
    if (lease) {
      const client = await this.leasePool.connect();
      return { client, release: timed((err) => client.release(err)) };
    }
    const giveBack = await this.turns.take();
    try {
      const client = await this.pool.connect();
      return {
        client,
        release: timed((err) => {
          client.release(err);
          giveBack();
        }),
      };
    } catch (error) {
      giveBack();
      throw error;
    }
  }

  /** One statement on a connection of the bots' pool, in its turn. */
  private async query<R extends pg.QueryResultRow>(sql: string, values: unknown[] = []): Promise<pg.QueryResult<R>> {
    const { client, release } = await this.checkout(false);
    const dropped = watchDropped(client);
    let failed: Error | undefined;
    try {
      return await client.query<R>(sql, values);
    } catch (error) {
      failed = error instanceof Error ? error : new Error(String(error));
      throw dropped.cause(error);
    } finally {
      release(dropped.stop() ?? failed);
    }
  }

  /** `?` placeholders numbered for PostgreSQL, each text a named statement its connection prepares once. */
  private statement(sql: string): { name: string; text: string } {
    let named = this.names.get(sql);
    if (!named) {
      let n = 0;
      named = { name: `verbtree_${this.names.size}`, text: sql.replace(/\?/g, () => `$${++n}`) };
      this.names.set(sql, named);
    }
    return named;
  }

  private async execute(client: pg.PoolClient, op: Op): Promise<unknown> {
    return answer(op, await client.query({ ...this.statement(op.sql), values: [...op.params] }));
  }

  /**
   * One transaction, in as few round trips as its logic allows: BEGIN and every statement whose answer is not needed
   * (`exec`) wait to be sent, in order and as one simple query, with the next statement whose answer is, or with the
   * COMMIT. On a busy worker each round trip waits for a turn of its event loop, holding the connection.
   */
  protected async transact<R>(body: () => Tx<R>, options: TxOptions): Promise<R> {
    if (options.single) return this.statementAlone(body, options);
    const { client, release } = await this.checkout(options.lease);
    const dropped = watchDropped(client);
    let broken: Error | undefined;
    // A read sees one snapshot across its statements.
    const held: Held[] = [{ text: options.readOnly ? 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY' : 'BEGIN' }];
    if (options.sweeper) held.push({ text: `SELECT pg_advisory_xact_lock(${SWEEPER_LOCK})` });
    try {
      const result = await driveAsync(body(), (op) => {
        if (op.kind !== 'exec' && op.kind !== 'later') return this.executeAfter(client, held.splice(0), op);
        held.push(op.kind === 'later' ? { text: inline(op), op } : { text: inline(op) });
        return Promise.resolve(undefined);
      });
      held.push({ text: options.rollback ? 'ROLLBACK' : 'COMMIT' });
      await sendHeld(client, held);
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((lost: Error) => (broken = lost));
      if (options.fence && (error as { code?: unknown }).code === FENCE_REFUSED)
        throw new LeaseLostError(options.fence);
      throw dropped.cause(error);
    } finally {
      const lost = dropped.stop();
      release(broken ?? lost);
    }
  }

  /** `op`, sent after the statements held for it: one simple query for all, the answer of the last. */
  private async executeAfter(client: pg.PoolClient, held: readonly Held[], op: Op): Promise<unknown> {
    if (held.length === 0) return this.execute(client, op);
    return answer(op, await sendHeld(client, [...held, { text: inline(op) }]));
  }

  /** A body of one statement, run without BEGIN and COMMIT: PostgreSQL commits it alone. */
  private async statementAlone<R>(body: () => Tx<R>, options: TxOptions): Promise<R> {
    const { client, release } = await this.checkout(options.lease);
    const dropped = watchDropped(client);
    let statements = 0;
    let failed: Error | undefined;
    try {
      return await driveAsync(body(), (op) => {
        if (++statements > 1) throw new Error(`a single-statement write ran a second statement: ${op.sql}`);
        return this.execute(client, op);
      });
    } catch (error) {
      // A statement timed out may still be running on its connection: that connection is not given to another.
      failed = error instanceof Error ? error : new Error(String(error));
      throw dropped.cause(error);
    } finally {
      release(dropped.stop() ?? failed);
    }
  }

  /**
   * Every plan's events in commit order: by (transaction id, id), and only those of transactions older than the
   * oldest one still running (`pg_snapshot_xmin`). Ids alone commit out of order, so a reader paging by id could
   * pass an event a slower transaction commits later; no transaction below the bound can still commit.
   */
  async eventFeed(cursor: string | null, limit: number): Promise<EventFeedPage> {
    const [tx, id] = cursor === null ? ['0', 0] : parseCursor(cursor);
    const { rows } = await this.query<{
      id: number;
      plan_id: string;
      bot: string | null;
      type: string;
      at: number;
      body: string;
      tx: string;
    }>(
      `SELECT e.id, e.plan_id, p.bot, e.type, e.at, e.body, e.tx::text AS tx
       FROM events e LEFT JOIN plans p ON p.plan_id = e.plan_id
       WHERE (e.tx, e.id) > ($1::xid8, $2) AND e.tx < pg_snapshot_xmin(pg_current_snapshot())
       ORDER BY e.tx, e.id LIMIT $3`,
      [tx, id, limit],
    );
    const last = rows.at(-1);
    return {
      rows: rows.map((r) => ({
        id: r.id,
        planId: r.plan_id,
        bot: r.bot,
        type: r.type,
        at: r.at,
        event: JSON.parse(r.body) as unknown,
      })),
      cursor: last ? `${last.tx}:${last.id}` : cursor,
    };
  }

  /**
   * The last event below the oldest transaction still running: every transaction that can still commit has a later
   * transaction id, so its events come after this cursor.
   */
  async eventFeedEnd(): Promise<string | null> {
    const { rows } = await this.query<{ tx: string; id: number }>(
      `SELECT tx::text AS tx, id FROM events WHERE tx < pg_snapshot_xmin(pg_current_snapshot())
       ORDER BY tx DESC, id DESC LIMIT 1`,
    );
    const last = rows[0];
    return last ? `${last.tx}:${last.id}` : null;
  }

  async close(): Promise<void> {
    await Promise.all([this.pool.end(), this.leasePool.end()]);
  }
}

/** A connection taken from a pool, and how it goes back (broken, with the error that broke it). */
interface Checkout {
  client: pg.PoolClient;
  release: (err?: Error) => void;
}

function newPool(
  url: string,
  max: number,
  timeouts: Pick<PostgresJournalOptions, 'queryTimeoutMs' | 'idleInTransactionTimeoutMs' | 'connectTimeoutMs'>,
): pg.Pool {
  const { queryTimeoutMs, idleInTransactionTimeoutMs } = timeouts;
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: timeouts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    // The read timeout is the client's own (read-timeout.ts), not node-postgres's query_timeout.
    ...(queryTimeoutMs ? { Client: clientWithReadTimeout(queryTimeoutMs), statement_timeout: queryTimeoutMs } : {}),
    ...(idleInTransactionTimeoutMs ? { idle_in_transaction_session_timeout: idleInTransactionTimeoutMs } : {}),
    application_name: 'verbtree',
    types,
  });
  // An idle connection the server dropped: the pool discards it, and the next write that needs one reports why.
  pool.on('error', () => undefined);
  // A session the server ends (a restart, an administrator's command) sends its error when it comes, query or not; a
  // client with no listener at that moment would raise it as an uncaught exception and kill the worker, as a
  // `verbtree worker` did once in `test/fleet/db-restart.test.ts` under load. Heard here for the client's whole life,
  // it fails only the write that uses the client next ("not queryable"), and `watchDropped` still discards it.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

function parseCursor(cursor: string): [string, number] {
  const match = /^(\d+):(\d+)$/.exec(cursor);
  if (!match) throw new Error(`not an event cursor of this journal: "${cursor}" (pass back the cursor a page gave)`);
  return [match[1]!, Number(match[2])];
}

/** Applies the migrations this database lacks, one process at a time; refuses a database that is not a journal. */
async function migrate(client: pg.PoolClient, location: string, mustExist: boolean): Promise<void> {
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
  try {
    const { rows } = await client.query<{ present: boolean }>(
      "SELECT to_regclass('verbtree_schema') IS NOT NULL AS present",
    );
    if (!rows[0]!.present) {
      if (mustExist)
        throw new JournalOpenError(
          `${location} holds no verbtree journal yet (run a plan with --journal ${location} first, or pass another --journal)`,
        );
      const { rows: ours } = await client.query<{ tablename: string }>(
        'SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename = ANY($1)',
        [JOURNAL_TABLES],
      );
      if (ours.length > 0)
        throw new JournalOpenError(
          `${location} is a PostgreSQL database but not a verbtree journal (it has tables of its own named ${ours.map((t) => t.tablename).join(', ')}): give verbtree a database of its own (createdb verbtree) and pass its URL with --journal`,
        );
      await client.query(
        'CREATE TABLE verbtree_schema (version INTEGER NOT NULL); INSERT INTO verbtree_schema VALUES (0)',
      );
    }
    const { rows: at } = await client.query<{ version: number }>('SELECT version FROM verbtree_schema');
    const version = at[0]!.version;
    if (version > PG_MIGRATIONS.length)
      throw new JournalOpenError(
        `${location} was written by a newer verbtree (journal schema ${version}, this one knows up to ${PG_MIGRATIONS.length}): upgrade verbtree or use another --journal database`,
      );
    for (let next = version; next < PG_MIGRATIONS.length; next++) {
      await client.query('BEGIN');
      try {
        await client.query(PG_MIGRATIONS[next]!);
        await client.query('UPDATE verbtree_schema SET version = $1', [next + 1]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
  }
}

/** Why the database could not be reached, and what to do: never a stack trace. */
function unreachable(location: string, error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  const fix =
    code === '3D000'
      ? 'create that database (createdb <name>) or fix the database name in --journal'
      : code === '28P01' || code === '28000'
        ? 'fix the user or password in --journal (postgres://user:password@host:port/database)'
        : 'start PostgreSQL there, or fix --journal (postgres://user:password@host:port/database)';
  return `cannot reach the PostgreSQL journal at ${location}: ${message || code || 'no answer'}; ${fix}`;
}
