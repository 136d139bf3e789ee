import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SqliteJournal } from '../../src/journal/sqlite/sqlite-journal.js';

/**
 * The helpers clean up after each test that used them, wherever they were first loaded. Imported here only once this
 * file's tests are collected: as in a worker that shares its modules (`isolate: false`), where another file loaded
 * them first and this file's loading them does nothing.
 */
describe('a temp journal from test/journal/helpers.ts, the helpers loaded after this file was collected', () => {
  let helpers: typeof import('./helpers.js');
  beforeAll(async () => {
    helpers = await import('./helpers.js');
  });

  let opened: { path: string; journal: SqliteJournal } | undefined;
  it('is open, in a folder of its own, during the test that opened it', () => {
    opened = helpers.openTemp();
    expect(opened.journal.db.open).toBe(true);
    expect(existsSync(dirname(opened.path))).toBe(true);
  });

  it('was closed and its folder removed when that test finished', () => {
    expect(opened?.journal.db.open).toBe(false);
    expect(existsSync(dirname(opened!.path))).toBe(false);
  });
});
