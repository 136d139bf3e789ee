import type pg from 'pg';
import { expect, it } from 'vitest';
import { watchDropped } from '../../src/journal/postgres/dropped.js';
import { rawClient } from '../helpers/postgres.js';
import { usePostgres } from '../helpers/use-postgres.js';

/*
 * A session an administrator ends (57P01) between two statements of a write: the server's error reaches the client
 * while no query is in flight, and the next statement fails with node-postgres's "not queryable", which says nothing
 * of why. What the journal reports must be the reason the session ended (a fleet worker's fence line and its run's
 * detail quote it: test/fleet/held-bot-control.test.ts), whichever of the two came to the write first.
 */

const cluster = usePostgres();

/** Ends `victim`'s session from another and waits until the victim has heard it. */
async function terminate(victim: pg.Client): Promise<void> {
  const heard = new Promise<void>((resolve) => victim.once('error', () => resolve()));
  const admin = await rawClient(cluster.url());
  try {
    const { rows } = await victim.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
  } finally {
    await admin.end();
  }
  await heard;
}

it('a statement after the session was ended fails with the ended session\'s error, not "not queryable"', async () => {
  const client = await rawClient(cluster.url());
  client.on('error', () => undefined);
  const dropped = watchDropped(client);
  await terminate(client);
  const failure = await client.query('SELECT 1').then(
    () => null,
    (error: unknown) => error,
  );
  // What node-postgres gives, the reason this watcher exists.
  expect(String(failure)).toMatch(/not queryable/);
  const cause = dropped.cause(failure) as Error & { code?: string };
  expect(cause.message).toBe('terminating connection due to administrator command');
  expect(cause.code).toBe('57P01');
  // Heard, the client is not given back to a pool.
  expect(dropped.stop()).toBe(cause);
  await client.end().catch(() => undefined);
});

it('any other failure, and one on a session that was not ended, is reported as it is', async () => {
  const client = await rawClient(cluster.url());
  try {
    const dropped = watchDropped(client);
    const failure = await client.query('SELECT nope').then(
      () => null,
      (error: unknown) => error,
    );
    expect(dropped.cause(failure)).toBe(failure);
    expect(dropped.stop()).toBeUndefined();
  } finally {
    await client.end();
  }
});
