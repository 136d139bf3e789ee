import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type Database from 'better-sqlite3';
import { MissingPackageError, requireOptional } from '../missing-package.js';
import { MIGRATIONS } from './schema.js';
import type { StepStatus } from './rows.js';

/** better-sqlite3, loaded when a journal is first opened: a planner that never journals runs without it installed. */
function sqlite(): typeof Database {
  try {
    return requireOptional<typeof Database>('better-sqlite3', 'the journal');
  } catch (error) {
    throw error instanceof MissingPackageError ? new JournalOpenError(error.message) : error;
  }
}

/** Where commands keep the journal unless `--journal <path>` says otherwise. */
export const DEFAULT_JOURNAL_PATH = '.verbtree/journal.db';

export interface JournalOptions {
  /** Wall-clock source for heartbeats, incidents and health checks (epoch ms). */
  now?: () => number;
  /** Open an existing journal only; fail instead of creating a new, empty one. */
  mustExist?: boolean;
}

/**
 * The durable record of every run: a SQLite database in WAL mode, written
 * synchronously so a row is on disk before the call returns (a SIGKILL after it
 * loses nothing). Several processes may share one file; writers wait for each other.
 */
export class Journal {
  readonly db: Database.Database;
  readonly now: () => number;
  private readonly statements = new Map<string, Database.Statement>();

  static open(path: string, options: JournalOptions = {}): Journal {
    const hint = options.mustExist ? ' (run a plan with --journal first, or pass --journal <path>)' : '';
    let db: Database.Database;
    try {
      if (path !== ':memory:' && !options.mustExist) mkdirSync(dirname(path), { recursive: true });
      db = new (sqlite())(path, { fileMustExist: options.mustExist === true });
    } catch (error) {
      throw new JournalOpenError(`cannot open the journal at ${path}: ${(error as Error).message}${hint}`);
    }
    try {
      return new Journal(db, options.now ?? Date.now);
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

  private constructor(db: Database.Database, now: () => number) {
    this.db = db;
    this.now = now;
    this.refuseForeignDatabase();
    db.pragma('journal_mode = WAL');
    // NORMAL in WAL mode survives a killed process (the OS holds the written pages); only power loss may drop the last
    // commit.
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    this.migrate();
  }

  /** Never migrate another application's database into a journal, nor read a journal from a newer verbtree. */
  private refuseForeignDatabase(): void {
    const version = this.schemaVersion;
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

  get schemaVersion(): number {
    return this.db.pragma('user_version', { simple: true }) as number;
  }

  private migrate(): void {
    for (let version = this.schemaVersion; version < MIGRATIONS.length; version++) {
      this.db
        .transaction(() => {
          this.db.exec(MIGRATIONS[version]!);
          this.db.pragma(`user_version = ${version + 1}`);
        })
        .immediate();
    }
  }

  /** A cached prepared statement. */
  sql(text: string): Database.Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  /** Runs `fn` in one write transaction (taken at once, so concurrent writers queue rather than fail). */
  write<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  /** Moves a step to `to` and records the transition; returns false when the step does not exist. */
  transition(
    planId: string,
    stepId: string,
    to: StepStatus,
    reason: string | null,
    runId: number | null,
    at = this.now(),
  ): boolean {
    const row = this.sql('SELECT status FROM steps WHERE plan_id = ? AND step_id = ?').get(planId, stepId) as
      { status: StepStatus } | undefined;
    if (!row) return false;
    this.sql('UPDATE steps SET status = ?, updated_at = ? WHERE plan_id = ? AND step_id = ?').run(
      to,
      at,
      planId,
      stepId,
    );
    this.sql(
      'INSERT INTO step_transitions (plan_id, step_id, run_id, from_status, to_status, at, reason) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ).run(planId, stepId, runId, row.status, to, at, reason);
    return true;
  }

  openIncident(incident: {
    planId?: string | null;
    stepId?: string | null;
    runnerId?: string | null;
    attemptId?: number | null;
    mode: string;
    details: unknown;
    at?: number;
  }): number {
    const info = this.sql(
      'INSERT INTO incidents (plan_id, step_id, runner_id, attempt_id, failure_mode, detected_at, details) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ).run(
      incident.planId ?? null,
      incident.stepId ?? null,
      incident.runnerId ?? null,
      incident.attemptId ?? null,
      incident.mode,
      incident.at ?? this.now(),
      JSON.stringify(incident.details ?? null),
    );
    return Number(info.lastInsertRowid);
  }

  resolveIncident(id: number, resolution: string, at = this.now()): void {
    this.sql('UPDATE incidents SET resolved_at = ?, resolution = ? WHERE id = ?').run(at, resolution, id);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

export class JournalOpenError extends Error {
  override name = 'JournalOpenError';
}
