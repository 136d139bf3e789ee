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
    journal.sql("INSERT INTO steps (plan_id, step_id, seq, verb, status, updated_at) VALUES ('p', 's', 0, 'navigate', 'pending', 0)").run();
    expect(journal.transition('p', 's', 'in_progress', 'dispatched', null)).toBe(true);
    expect(journal.transition('p', 'nope', 'in_progress', 'dispatched', null)).toBe(false);
    expect(journal.sql('SELECT from_status, to_status, at, reason FROM step_transitions').all()).toEqual([{ from_status: 'pending', to_status: 'in_progress', at: 42, reason: 'dispatched' }]);
    expect(() => journal.sql("UPDATE steps SET status = 'done'").run()).toThrow(/CHECK constraint/);
    journal.close();
  });
});
