import { run, type Tx } from './tx.js';

export function* registerRunner(runner: { id: string; pid: number; host: string; kind: string }): Tx<void> {
  yield* run(
    "INSERT INTO runners (id, pid, host, kind, status, started_at, last_heartbeat) VALUES (?, ?, ?, ?, 'running', verbtree_now(), verbtree_now())",
    runner.id,
    runner.pid,
    runner.host,
    runner.kind,
  );
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
