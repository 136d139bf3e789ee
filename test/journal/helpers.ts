import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import type { Journal } from '../../src/journal/journal.js';
import type { StepRow } from '../../src/journal/rows.js';
import { SqliteJournal } from '../../src/journal/sqlite/sqlite-journal.js';

/**
 * A fresh journal file, removed when the calling test finishes. Called in a test or its beforeEach: the cleanup is
 * that test's own (onTestFinished), not a hook this module registers when it loads, so files that share their
 * worker's modules (vitest `isolate: false`) each clean up after their own tests.
 */
export function tempJournalPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'verbtree-journal-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'journal.db');
}

/** A journal on a fresh file, closed (then removed) when the calling test finishes. */
export function openTemp(now?: () => number): { path: string; journal: SqliteJournal } {
  const path = tempJournalPath();
  const journal = SqliteJournal.open(path, now ? { now } : {});
  onTestFinished(() => journal.close());
  return { path, journal };
}

/**
 * A walk to x 2, four planks, and the walk back: a plan with a step on either side of the craft, for a bot holding one
 * oak log on SimWorld's flat ground.
 */
export const walkCraftBack = (planId: string) => ({
  planId,
  intentId: 'i',
  steps: [
    { stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', x: 2, y: 0, z: 0 } } },
    { stepId: 'planks', type: 'craft_item', args: { item: 'oak_planks', count: 4 } },
    { stepId: 'back', type: 'navigate', args: { target: { kind: 'block', x: 0, y: 0, z: 0 } } },
  ],
});

/** A plan's steps as the journal holds them, in order. */
export async function stepsOf(journal: Journal, planId: string): Promise<StepRow[]> {
  return (await journal.planProvenance(planId))?.steps.map((s) => s.step) ?? [];
}

/** `fields` of each of a plan's steps, in order: what most tests compare. */
export async function stepFields<K extends keyof StepRow>(
  journal: Journal,
  planId: string,
  ...fields: K[]
): Promise<Pick<StepRow, K>[]> {
  return (await stepsOf(journal, planId)).map(
    (step) => Object.fromEntries(fields.map((f) => [f, step[f]])) as Pick<StepRow, K>,
  );
}

/**
 * Copies a SQLite journal as it is now (VACUUM INTO): what a process SIGKILLed at this moment leaves behind. The
 * one place a test reaches the database itself, to stand for a crash.
 */
export function crashCopy(journal: SqliteJournal, to: string): void {
  journal.db.exec(`VACUUM INTO '${to}'`);
}

/**
 * Makes a crash copy's runners and plan leases belong to the process `pid` on this host (a dead one): the copy was
 * taken from a live test process, and a crashed journal's processes are gone.
 */
export function asIfWrittenBy(journal: SqliteJournal, pid: number, host: string): void {
  journal.db.prepare('UPDATE runners SET pid = ?, host = ?').run(pid, host);
  journal.db.prepare('UPDATE plan_leases SET pid = ?').run(pid);
}
