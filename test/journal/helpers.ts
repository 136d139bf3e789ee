import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { Journal } from '../../src/journal/journal.js';

/** A fresh journal file per test, removed afterwards. */
export function tempJournalPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'verbtree-journal-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'journal.db');
}

export function openTemp(now?: () => number): { path: string; journal: Journal } {
  const path = tempJournalPath();
  const journal = Journal.open(path, now ? { now } : {});
  cleanups.push(() => journal.close());
  return { path, journal };
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});
