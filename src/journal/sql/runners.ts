import type { RunnerRow } from '../rows.js';
import { get, run, type Tx } from './tx.js';

/** A runner id already registered to a process that still beats: a second process may not take it. */
export class RunnerInUseError extends Error {
  override name = 'RunnerInUseError';

  constructor(
    readonly id: string,
    readonly holder: Pick<RunnerRow, 'pid' | 'host' | 'kind'> & { silentMs: number },
  ) {
    super(
      `"${id}" is the id of a live verbtree ${holder.kind} (pid ${holder.pid} on ${holder.host}, last heartbeat ${Math.round(holder.silentMs)} ms ago)`,
    );
  }
}

/**
 * Registers a runner. With `takeOverSilentAfterMs` (a fleet worker registering under its node id), an id already
 * known is taken over when its runner stopped, died or has been silent that long: a restarted worker is the same
 * node again. One that still beats keeps it, and this registration fails with a RunnerInUseError (in one statement,
 * so of two processes registering one id at once, one wins).
 */
export function* registerRunner(
  runner: { id: string; pid: number; host: string; kind: string },
  takeOverSilentAfterMs?: number,
): Tx<void> {
  const insert =
    "INSERT INTO runners (id, pid, host, kind, status, started_at, last_heartbeat) VALUES (?, ?, ?, ?, 'running', verbtree_now(), verbtree_now())";
  if (takeOverSilentAfterMs === undefined) {
    yield* run(insert, runner.id, runner.pid, runner.host, runner.kind);
    return;
  }
  const changed = yield* run(
    `${insert} ON CONFLICT (id) DO UPDATE SET pid = excluded.pid, host = excluded.host, kind = excluded.kind,
       status = 'running', started_at = excluded.started_at, last_heartbeat = excluded.last_heartbeat, stopped_at = NULL
     WHERE runners.status != 'running' OR runners.last_heartbeat <= verbtree_now() - ?`,
    runner.id,
    runner.pid,
    runner.host,
    runner.kind,
    takeOverSilentAfterMs,
  );
  if (changed > 0) return;
  const holder = yield* get<Pick<RunnerRow, 'pid' | 'host' | 'kind'> & { silent_ms: number }>(
    'SELECT pid, host, kind, verbtree_now() - last_heartbeat AS silent_ms FROM runners WHERE id = ?',
    runner.id,
  );
  throw new RunnerInUseError(runner.id, {
    pid: holder?.pid ?? 0,
    host: holder?.host ?? 'unknown',
    kind: holder?.kind ?? 'runner',
    silentMs: Number(holder?.silent_ms ?? 0),
  });
}

export function* beatRunner(id: string): Tx<void> {
  yield* run('UPDATE runners SET last_heartbeat = verbtree_now() WHERE id = ?', id);
  yield* run('INSERT INTO heartbeats (runner_id, at) VALUES (?, verbtree_now())', id);
  // Keep the last hundred beats per runner: enough to see a rhythm, not a growing log.
  yield* run(
    'DELETE FROM heartbeats WHERE runner_id = ? AND at < (SELECT MIN(at) FROM (SELECT at FROM heartbeats WHERE runner_id = ? ORDER BY at DESC LIMIT 100) AS recent)',
    id,
    id,
  );
}

export function* stopRunner(id: string): Tx<void> {
  yield* run(
    "UPDATE runners SET status = 'stopped', stopped_at = verbtree_now() WHERE id = ? AND status = 'running'",
    id,
  );
}
