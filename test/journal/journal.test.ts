import { readFileSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { Journal, JournalOpenError } from '../../src/journal/journal.js';
import { MIGRATIONS } from '../../src/journal/schema.js';
import { tempJournalPath } from './helpers.js';

describe('journal file', () => {
  it('opens in WAL mode with every migration applied once', () => {
    const path = tempJournalPath();
    const journal = Journal.open(path);
    expect(journal.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(journal.schemaVersion).toBe(MIGRATIONS.length);
    journal.openIncident({ mode: 'orphaned_step', details: { n: 1 } });
    journal.close();
    const reopened = Journal.open(path);
    expect(reopened.schemaVersion).toBe(MIGRATIONS.length);
    expect(reopened.sql('SELECT COUNT(*) AS n FROM incidents').get()).toEqual({ n: 1 });
    reopened.close();
  });

  it('refuses to invent a journal a reading command expects to exist, naming the path and the fix', () => {
    const path = tempJournalPath();
    expect(() => Journal.open(path, { mustExist: true })).toThrow(JournalOpenError);
    expect(() => Journal.open(path, { mustExist: true })).toThrow(`cannot open the journal at ${path}`);
  });

  it('records a status transition with its reason and refuses unknown steps', () => {
    const journal = Journal.open(tempJournalPath(), { now: () => 42 });
    journal.sql("INSERT INTO plans (plan_id, status, created_at, updated_at) VALUES ('p', 'running', 0, 0)").run();
    journal
      .sql(
        "INSERT INTO steps (plan_id, step_id, seq, verb, status, updated_at) VALUES ('p', 's', 0, 'navigate', 'pending', 0)",
      )
      .run();
    expect(journal.transition('p', 's', 'in_progress', 'dispatched', null)).toBe(true);
    expect(journal.transition('p', 'nope', 'in_progress', 'dispatched', null)).toBe(false);
    expect(journal.sql('SELECT from_status, to_status, at, reason FROM step_transitions').all()).toEqual([
      { from_status: 'pending', to_status: 'in_progress', at: 42, reason: 'dispatched' },
    ]);
    expect(() => journal.sql("UPDATE steps SET status = 'done'").run()).toThrow(/CHECK constraint/);
    journal.close();
  });
  it('refuses a file that is not an SQLite database, naming it, and leaves it as it was', () => {
    const path = tempJournalPath();
    writeFileSync(path, 'my notes, not a journal\n'.repeat(200));
    expect(() => Journal.open(path)).toThrow(JournalOpenError);
    expect(() => Journal.open(path)).toThrow(`${path} is not a verbtree journal`);
    expect(readFileSync(path, 'utf8')).toBe('my notes, not a journal\n'.repeat(200));
  });

  it("never migrates another application's SQLite database into a journal", () => {
    const path = tempJournalPath();
    const other = new Database(path);
    other.exec('CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)');
    other.close();
    expect(() => Journal.open(path)).toThrow(/is an SQLite database but not a verbtree journal/);
    const reopened = new Database(path);
    expect(reopened.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all()).toEqual([
      { name: 'customers' },
    ]);
    reopened.close();
  });

  it('refuses a journal written by a newer verbtree instead of guessing at its schema', () => {
    const path = tempJournalPath();
    Journal.open(path).close();
    const raw = new Database(path);
    raw.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    raw.close();
    expect(() => Journal.open(path)).toThrow(/written by a newer verbtree/);
  });
});
