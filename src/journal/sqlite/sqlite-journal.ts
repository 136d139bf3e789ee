import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type Database from 'better-sqlite3';
import { MissingPackageError, requireOptional } from '../../missing-package.js';
import { JournalOpenError, LeaseLostError } from '../journal.js';
import type { Fence } from '../rows.js';
import { SqlJournal, type TxOptions } from '../sql/sql-journal.js';
import { driveSync, get, type Op, type Tx } from '../sql/tx.js';
import type { EventFeedPage } from '../views.js';
import { MIGRATIONS } from './migrations.js';

/** better-sqlite3, loaded when a journal is first opened: a planner that never journals runs without it installed. */
function sqlite(): typeof Database {
  try {
    return requireOptional<typeof Database>('better-sqlite3', 'the journal');
  } catch (error) {
    throw error instanceof MissingPackageError ? new JournalOpenError(error.message) : error;
  }
}

export interface SqliteJournalOptions {
  /** The journal's wall clock (epoch ms): heartbeats, leases, incidents and health checks read it. */
  now?: () => number;
  /** Open an existing journal only; fail instead of creating a new, empty one. */
  mustExist?: boolean;
}

/**
 * The journal in a SQLite file in WAL mode, written synchronously: every write is on disk before its method returns
 * (a SIGKILL after it loses nothing). Several processes may share one file; writers wait for each other.
 */
export class SqliteJournal extends SqlJournal {
  readonly backend = 'sqlite';
  readonly writesOnCall = true;
  /** SQLite runs one write transaction at a time: a sweep's writes already wait for another's. */
  protected readonly trySweeperSql = 'SELECT 1 AS got';
  /** SQLite's writers take turns: no row is ever locked by another writer while a claim runs. */
  protected readonly skipLockedSql = '';
  /** The database itself: for tests that simulate a crash's leftovers or a foreign file, never for the domain. */
  readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();

  protected *checkFence(fence: Fence): Tx<void> {
    const held = yield* get<{ bot: string }>(
      'SELECT bot FROM bot_leases WHERE bot = ? AND epoch = ? AND holder IS NOT NULL AND expires_at > verbtree_now()',
      fence.bot,
      fence.epoch,
    );
    if (!held) throw new LeaseLostError(fence);
  }

  static open(path: string, options: SqliteJournalOptions = {}): SqliteJournal {
    const hint = options.mustExist ? ' (run a plan with --journal first, or pass --journal <path>)' : '';
    let db: Database.Database;
    try {
      if (path !== ':memory:' && !options.mustExist) mkdirSync(dirname(path), { recursive: true });
      db = new (sqlite())(path, { fileMustExist: options.mustExist === true });
    } catch (error) {
      throw new JournalOpenError(`cannot open the journal at ${path}: ${(error as Error).message}${hint}`);
    }
    try {
      return new SqliteJournal(db, path, options.now ?? Date.now);
    } catch (error) {
      db.close();
      if (error instanceof JournalOpenError) throw new JournalOpenError(`${path} ${error.message}`);
      // SQLITE_NOTADB: some other file; anything else (read-only, locked, full disk) is told as it is.
      const message = (error as Error).message;
      if (/not a database/i.test(message))
        throw new JournalOpenError(
          `${path} is not a verbtree journal (not an SQLite database): pass --journal with a new path or an existing journal`,
        );
      throw new JournalOpenError(`cannot open the journal at ${path}: ${message}`);
    }
  }

  private constructor(
    db: Database.Database,
    readonly location: string,
    now: () => number,
  ) {
    super();
    this.db = db;
    this.refuseForeignDatabase();
    db.pragma('journal_mode = WAL');
    // NORMAL in WAL mode survives a killed process (the OS holds the written pages); only power loss may drop the last
    // commit.
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    db.function('verbtree_now', { deterministic: false }, () => now());
    this.migrate();
  }

  /** Never migrate another application's database into a journal, nor read a journal from a newer verbtree. */
  private refuseForeignDatabase(): void {
    const version = this.version();
    if (version > MIGRATIONS.length) {
      throw new JournalOpenError(
        `was written by a newer verbtree (journal schema ${version}, this one knows up to ${MIGRATIONS.length}): upgrade verbtree or use another --journal path`,
      );
    }
    if (version === 0) {
      const tables = this.db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as {
        n: number;
      };
      if (tables.n > 0)
        throw new JournalOpenError(
          'is an SQLite database but not a verbtree journal (it has tables of its own): pass --journal with a new path or an existing journal',
        );
    }
  }

  private version(): number {
    return this.db.pragma('user_version', { simple: true }) as number;
  }

  private migrate(): void {
    for (let version = this.version(); version < MIGRATIONS.length; version++) {
      this.db
        .transaction(() => {
          this.db.exec(MIGRATIONS[version]!);
          this.db.pragma(`user_version = ${version + 1}`);
        })
        .immediate();
    }
  }

  schemaVersion(): Promise<number> {
    return Promise.resolve(this.version());
  }

  private statement(text: string): Database.Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  private execute(op: Op): unknown {
    const statement = this.statement(op.sql);
    if (op.kind === 'all') return statement.all(...op.params);
    if (op.kind === 'get') return statement.get(...op.params);
    if (op.kind === 'later') return op.answer.set(statement.get(...op.params));
    return statement.run(...op.params).changes;
  }

  /** Synchronous underneath: the transaction has committed (or failed) before the promise is even returned. */
  protected transact<R>(body: () => Tx<R>, options: TxOptions): Promise<R> {
    try {
      return Promise.resolve(this.transactNow(body, options));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private transactNow<R>(body: () => Tx<R>, options: TxOptions): R {
    const drive = () => driveSync(body(), (op) => this.execute(op));
    if (options.rollback) {
      // Deferred: a dry run takes the write lock only if it would write, and only until the rollback.
      this.db.exec('BEGIN');
      try {
        return drive();
      } finally {
        this.db.exec('ROLLBACK');
      }
    }
    const transaction = this.db.transaction(drive);
    // A write takes the lock at once, so concurrent writers queue rather than fail midway.
    return options.readOnly ? transaction.deferred() : transaction.immediate();
  }

  /** SQLite commits one writer at a time, each assigning its ids inside its transaction: id order is commit order. */
  eventFeed(cursor: string | null, limit: number): Promise<EventFeedPage> {
    const after = cursor === null ? 0 : Number(cursor);
    const rows = this.statement(
      'SELECT e.id, e.plan_id, p.bot, e.type, e.at, e.body FROM events e LEFT JOIN plans p ON p.plan_id = e.plan_id WHERE e.id > ? ORDER BY e.id LIMIT ?',
    ).all(after, limit) as {
      id: number;
      plan_id: string;
      bot: string | null;
      type: string;
      at: number;
      body: string;
    }[];
    return Promise.resolve({
      rows: rows.map((r) => ({
        id: r.id,
        planId: r.plan_id,
        bot: r.bot,
        type: r.type,
        at: r.at,
        event: JSON.parse(r.body) as unknown,
      })),
      cursor: rows.length > 0 ? String(rows.at(-1)!.id) : cursor,
    });
  }

  /** SQLite commits one writer at a time, in id order: the last id is past everything committed. */
  eventFeedEnd(): Promise<string | null> {
    const row = this.statement('SELECT MAX(id) AS id FROM events').get() as { id: number | null };
    return Promise.resolve(row.id === null ? null : String(row.id));
  }

  close(): Promise<void> {
    if (this.db.open) this.db.close();
    return Promise.resolve();
  }
}
