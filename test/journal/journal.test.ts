import { readFileSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { JournalOpenError } from '../../src/journal/journal.js';
import { openJournal } from '../../src/journal/open.js';
import { MIGRATIONS } from '../../src/journal/sqlite/migrations.js';
import { SqliteJournal } from '../../src/journal/sqlite/sqlite-journal.js';
import { tempJournalPath } from './helpers.js';

describe('journal file', () => {
  it('opens with every migration applied once, and a second connection reads what the first wrote', async () => {
    const path = tempJournalPath();
    const journal = await openJournal(path);
    expect(journal.backend).toBe('sqlite');
    expect(await journal.schemaVersion()).toBe(MIGRATIONS.length);
    await journal.openIncident({ mode: 'orphaned_step', details: { n: 1 } });
    // Written on call: another process sees it at once, before this one closes.
    const reader = await openJournal(path, { mustExist: true });
    expect((await reader.listIncidents()).total).toBe(1);
    await reader.close();
    await journal.close();
    const reopened = await openJournal(path);
    expect(await reopened.schemaVersion()).toBe(MIGRATIONS.length);
    expect((await reopened.listIncidents()).incidents.map((i) => i.details)).toEqual(['{"n":1}']);
    await reopened.close();
  });

  it('keeps its file in WAL mode, so readers never block the writer', () => {
    const journal = SqliteJournal.open(tempJournalPath());
    expect(journal.db.pragma('journal_mode', { simple: true })).toBe('wal');
    void journal.close();
  });

  it('refuses to invent a journal a reading command expects to exist, naming the path and the fix', async () => {
    const path = tempJournalPath();
    await expect(openJournal(path, { mustExist: true })).rejects.toThrow(JournalOpenError);
    await expect(openJournal(path, { mustExist: true })).rejects.toThrow(`cannot open the journal at ${path}`);
  });

  it('refuses a file that is not an SQLite database, naming it, and leaves it as it was', async () => {
    const path = tempJournalPath();
    writeFileSync(path, 'my notes, not a journal\n'.repeat(200));
    await expect(openJournal(path)).rejects.toThrow(JournalOpenError);
    await expect(openJournal(path)).rejects.toThrow(`${path} is not a verbtree journal`);
    expect(readFileSync(path, 'utf8')).toBe('my notes, not a journal\n'.repeat(200));
  });

  it("never migrates another application's SQLite database into a journal", async () => {
    const path = tempJournalPath();
    const other = new Database(path);
    other.exec('CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)');
    other.close();
    await expect(openJournal(path)).rejects.toThrow(/is an SQLite database but not a verbtree journal/);
    const reopened = new Database(path);
    expect(reopened.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all()).toEqual([
      { name: 'customers' },
    ]);
    reopened.close();
  });

  it('refuses a journal written by a newer verbtree instead of guessing at its schema', async () => {
    const path = tempJournalPath();
    await (await openJournal(path)).close();
    const raw = new Database(path);
    raw.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    raw.close();
    await expect(openJournal(path)).rejects.toThrow(/written by a newer verbtree/);
    await expect(openJournal(path)).rejects.toThrow(/upgrade verbtree or use another --journal path/);
  });

  it('migrates a journal written before the idempotency ledger: completed keys keep their step, verb and arguments', async () => {
    const path = tempJournalPath();
    const old = new Database(path);
    for (const migration of MIGRATIONS.slice(0, 4)) old.exec(migration);
    old.pragma('user_version = 4');
    old.exec(`INSERT INTO plans (plan_id, status, created_at, updated_at) VALUES ('p', 'succeeded', 0, 0);
      INSERT INTO steps (plan_id, step_id, seq, verb, args, idempotency_key, status, expectations, updated_at)
        VALUES ('p', 's', 0, 'craft_item', '{"item":"stick","count":4}', 'k', 'succeeded', '[]', 0);
      INSERT INTO idempotency (key, plan_id, step_id, completed_at) VALUES ('k', 'p', 's', 7);`);
    old.close();
    const journal = await openJournal(path);
    expect(await journal.completedKeys()).toEqual(['k']);
    expect(
      await journal.claimKey({ key: 'k', planId: 'q', stepId: 't', verb: 'craft_item', args: {}, runnerId: null }),
    ).toEqual({
      claimed: false,
      holder: {
        planId: 'p',
        stepId: 's',
        verb: 'craft_item',
        args: { item: 'stick', count: 4 },
        state: 'completed',
        expectations: [],
      },
    });
    await journal.close();
  });
});
