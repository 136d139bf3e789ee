import { afterEach } from 'vitest';
import type { Journal } from '../../src/journal/journal.js';
import { openJournal } from '../../src/journal/open.js';
import { usePostgres } from '../helpers/use-postgres.js';
import { tempJournalPath } from './helpers.js';

/** A fresh, empty journal of one backend, and what `--journal` would say to open it again. */
export interface Fresh {
  spec: string;
  journal: Journal;
  /** Another connection to the same journal (another process, as far as the journal can tell). */
  another: () => Promise<Journal>;
}

export type Backend = readonly [name: 'sqlite' | 'postgres', fresh: () => Promise<Fresh>];

/**
 * The backends a contract suite runs against, each test on a journal of its own: a SQLite file, and a database of
 * a PostgreSQL cluster this test file starts (once) and stops. Journals opened here are closed after each test.
 */
export function contractBackends(): readonly Backend[] {
  const cluster = usePostgres();
  const open: Journal[] = [];
  afterEach(async () => {
    for (const journal of open.splice(0)) await journal.close();
  });
  const track = async (spec: string): Promise<Journal> => {
    const journal = await openJournal(spec);
    open.push(journal);
    return journal;
  };
  const fresh = async (spec: string): Promise<Fresh> => ({
    spec,
    journal: await track(spec),
    another: () => track(spec),
  });
  return [
    ['sqlite', () => fresh(tempJournalPath())],
    ['postgres', async () => fresh(await cluster.database())],
  ];
}
