import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Journal } from '../../src/journal/journal.js';
import {
  prepareWorldFolder,
  startEmbeddedServerInChild,
  type ChildEmbeddedServer,
} from '../../src/world/embedded/index.js';
import { parseScenario } from '../../src/world/scenario/index.js';
import { startPostgres, type PostgresCluster } from '../helpers/postgres.js';
import { cliProcess, finished } from '../journal/cli-process.js';

/** What the fleet tests share: worker processes, polling the journal, the plans they queue, a proxy to cut. */

/**
 * A fleet test file's own world: a PostgreSQL cluster and the embedded server in a child process keeping its players
 * (so a bot that joins again comes back with what it held), started before its tests and stopped after. Each fleet
 * scenario is a file of its own, so that vitest runs them side by side; the fields are set once the hook has run.
 */
export function useFleetWorld(): FleetWorld {
  const world = {} as FleetWorld;
  beforeAll(async () => {
    world.cluster = await startPostgres();
    const folder = join(mkdtempSync(join(tmpdir(), 'verbtree-fleet-')), 'world');
    prepareWorldFolder(folder, 'fresh');
    world.server = await startEmbeddedServerInChild({
      scenario: parseScenario({ name: 'fleet', spawn: { x: 0, y: 5, z: 0 }, bot: { inventory: { oak_log: 2 } } }),
      storage: { folder, fresh: true },
    });
    world.startWorker = (url, id, bots, capacity, version) =>
      startWorker(url, world.server.port, id, bots, capacity, version);
  }, 60_000);
  afterAll(async () => {
    await world.server?.stop();
    world.cluster?.stop();
  });
  return world;
}

export interface FleetWorld {
  cluster: PostgresCluster;
  server: ChildEmbeddedServer;
  /** A worker process on this world's server. */
  startWorker(url: string, id: string, bots: string[], capacity: number, version?: string): Worker;
}

/** The lease the tests' workers hold (--lease-ms): short, so takeovers come within seconds. */
export const LEASE_MS = 2_000;

export interface Worker {
  id: string;
  child: ChildProcess;
  ended: ReturnType<typeof finished>;
  /** What it printed so far (on stdout, and on stderr marked as such) and its exit, once it exited. */
  out(): Promise<string>;
}

export function startWorker(
  url: string,
  port: number,
  id: string,
  bots: string[],
  capacity: number,
  version = '1.21.4',
  /** More options of `verbtree worker`. */
  extra: string[] = [],
): Worker {
  const child = cliProcess([
    'worker',
    ...['--journal', url, '--host', '127.0.0.1', '--port', String(port), '--version', version],
    ...bots.flatMap((b) => ['--bot', b]),
    ...['--capacity', String(capacity), '--node-id', id, '--lease-ms', String(LEASE_MS)],
    ...extra,
  ]);
  let printed = '';
  child.stdout!.on('data', (chunk) => (printed += String(chunk)));
  // Its errors and its exit too, marked: a wait that fails shows them with the rest.
  child.stderr!.on('data', (chunk) => (printed += `[stderr] ${String(chunk)}`));
  child.on('exit', (code, signal) => (printed += `[exited ${code ?? signal}]\n`));
  return { id, child, ended: finished(child), out: () => Promise.resolve(printed) };
}

export async function stopWorker(worker: Worker): Promise<void> {
  if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGTERM');
  await worker.ended;
}

/**
 * Polls `read` until `done` holds for what it read; fails naming `what` with the last reading past `limitMs`. A read
 * that fails (the test's own pool meeting connections a database restart closed) is a reading of "not yet".
 */
export async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, limitMs = 90_000) {
  const started = Date.now();
  for (;;) {
    const value = await read().catch((error: unknown) => ({ failed: String(error) }) as const);
    if (!(value && typeof value === 'object' && 'failed' in value) && done(value)) return value;
    if (Date.now() - started > limitMs)
      throw new Error(`${what} did not happen within ${limitMs} ms; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A bot's plan: planks from one log, a walk of its own, sticks from two planks, and back; keys make crafts once. */
export function planFor(bot: string, index: number, n: number) {
  const z = 2 * index;
  const id = `${bot}-p${n}`;
  return {
    planId: id,
    intentId: `${id}-intent`,
    steps: [
      { stepId: 'planks', type: 'craft_item', args: { item: 'oak_planks', count: 4 }, idempotencyKey: `${id}-planks` },
      { stepId: 'out', type: 'navigate', args: { target: { kind: 'block', x: 6, y: 5, z } } },
      { stepId: 'sticks', type: 'craft_item', args: { item: 'stick', count: 4 }, idempotencyKey: `${id}-sticks` },
      { stepId: 'back', type: 'navigate', args: { target: { kind: 'block', x: 0, y: 5, z } } },
    ],
  };
}

export async function queue(journal: Journal, bot: string, plan: { planId: string; intentId: string }): Promise<void> {
  await journal.addBot({ name: bot });
  expect(await journal.enqueuePlan({ planId: plan.planId, intentId: plan.intentId, bot, body: plan })).toEqual({
    queued: true,
  });
}

export const stepStatuses = async (journal: Journal, planId: string) =>
  ((await journal.planProvenance(planId))?.steps ?? []).map((s) => s.step.status);

export const statuses = async (journal: Journal, planIds: string[]) =>
  Promise.all(planIds.map(async (id) => (await journal.plan(id))?.status ?? 'missing'));

/** Waits until every plan of `planIds` has ended (succeeded or failed), then gives their statuses. */
export const plansEnded = (journal: Journal, planIds: string[], limitMs?: number) =>
  until(
    'every plan ended',
    () => statuses(journal, planIds),
    (s) => s.every((status) => status === 'succeeded' || status === 'failed'),
    limitMs,
  );

/** Each step's succeeded transitions, by plan and step. */
export async function succeededTransitions(journal: Journal, planId: string): Promise<Record<string, number>> {
  const provenance = (await journal.planProvenance(planId))!;
  return Object.fromEntries(
    provenance.steps
      .filter((s) => s.step.parent_step_id === null)
      .map((s) => [s.step.step_id, s.transitions.filter((t) => t.to_status === 'succeeded').length]),
  );
}

/** A short plan: a walk out and back on a row of the bot's own. */
export function walkFor(bot: string, index: number, n: number) {
  const z = 2 * index;
  const id = `${bot}-w${n}`;
  return {
    planId: id,
    intentId: `${id}-intent`,
    steps: [
      { stepId: 'out', type: 'navigate', args: { target: { kind: 'block', x: 2 + n, y: 5, z } } },
      { stepId: 'back', type: 'navigate', args: { target: { kind: 'block', x: 0, y: 5, z } } },
    ],
  };
}

/** Each [start, end] a step spent in progress, from its transitions (a span still open would end at infinity). */
export function inProgressSpans(stepsTransitions: { to_status: string; from_status: string | null; at: number }[][]) {
  const spans: [number, number][] = [];
  for (const transitions of stepsTransitions) {
    let start: number | null = null;
    for (const t of transitions) {
      if (t.to_status === 'in_progress') start = t.at;
      else if (t.from_status === 'in_progress' && start !== null) {
        spans.push([start, t.at]);
        start = null;
      }
    }
    if (start !== null) spans.push([start, Number.POSITIVE_INFINITY]);
  }
  return spans;
}

/**
 * Who holds and who waits for locks on the cluster now (pg_stat_activity with pg_blocking_pids and each session's
 * granted row-level and relation locks), one line per session of `database`: what a stalled takeover is shown with.
 */
export async function lockReport(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<Record<string, unknown>>(
      `SELECT a.pid, a.client_port, a.state, a.wait_event_type, a.wait_event, pg_blocking_pids(a.pid) AS blocked_by,
         round(extract(epoch FROM now() - a.xact_start) * 1000) AS xact_ms,
         round(extract(epoch FROM now() - a.state_change) * 1000) AS state_ms, left(a.query, 160) AS query,
         (SELECT string_agg(l.locktype || ':' || coalesce(l.relation::regclass::text, '') || ':' || l.mode || ':' ||
            CASE WHEN l.granted THEN 'held' ELSE 'waiting' END, ' ')
          FROM pg_locks l WHERE l.pid = a.pid AND l.locktype IN ('relation', 'tuple', 'transactionid')
            AND (l.relation IS NULL OR l.relation::regclass::text NOT LIKE 'pg_%')) AS locks
       FROM pg_stat_activity a WHERE a.datname = current_database() AND a.pid <> pg_backend_pid()
       ORDER BY a.xact_start NULLS LAST`,
    );
    return rows.map((r) => JSON.stringify(r)).join('\n');
  } finally {
    await client.end();
  }
}
