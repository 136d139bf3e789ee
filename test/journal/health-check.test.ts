import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { runHealthCheck } from '../../src/journal/health-check.js';
import type { Journal } from '../../src/journal/journal.js';
import type { IncidentRow, StepRow } from '../../src/journal/rows.js';
import { openTemp } from './helpers.js';

const HOUR = 3_600_000;

/** A runner that took a step of plan `p` and stopped answering at `beat`. */
function crashedMidStep(
  journal: Journal,
  options: {
    runner: string;
    pid: number;
    beat: number;
    step?: string;
    key?: string;
    failures?: number;
    deadlineAt?: number;
  },
) {
  const step = options.step ?? 's1';
  journal
    .sql(
      "INSERT INTO runners (id, pid, host, kind, status, started_at, last_heartbeat) VALUES (?, ?, (SELECT ?), 'run', 'running', 0, ?)",
    )
    .run(options.runner, options.pid, hostname(), options.beat);
  journal
    .sql(
      "INSERT OR IGNORE INTO plans (plan_id, intent_id, body, status, created_at, updated_at) VALUES ('p', 'i', '{}', 'running', 0, 0)",
    )
    .run();
  const run = Number(
    journal.sql('INSERT INTO runs (plan_id, runner_id, started_at) VALUES (?, ?, 0)').run('p', options.runner)
      .lastInsertRowid,
  );
  journal
    .sql(
      "INSERT INTO steps (plan_id, step_id, seq, verb, status, failure_count, run_id, idempotency_key, deadline_at, updated_at) VALUES ('p', ?, 0, 'navigate', 'in_progress', ?, ?, ?, ?, ?)",
    )
    .run(step, options.failures ?? 0, run, options.key ?? null, options.deadlineAt ?? null, options.beat);
  journal
    .sql(
      "INSERT INTO attempts (plan_id, step_id, run_id, number, started_at, last_actuator_at) VALUES ('p', ?, ?, 1, ?, ?)",
    )
    .run(step, run, options.beat - 100, options.beat - 50);
}

function step(journal: Journal, id = 's1'): StepRow {
  return journal.sql("SELECT * FROM steps WHERE plan_id = 'p' AND step_id = ?").get(id) as StepRow;
}

function incidents(journal: Journal): IncidentRow[] {
  return journal.sql('SELECT * FROM incidents ORDER BY id').all() as IncidentRow[];
}

describe('health check', () => {
  it('is healthy on an empty journal', () => {
    const { journal } = openTemp();
    const report = runHealthCheck(journal);
    expect(report.status).toBe('healthy');
    expect(report.findings).toEqual([]);
    expect(report.checks.map((c) => c.type)).toEqual([
      'orphaned_step',
      'hanging_attempt',
      'zombie_runner',
      'dead_runner',
    ]);
  });

  it('finds a dead runner by its pid, records the orphaned step and resets it to pending', () => {
    let now = 10_000;
    const { journal } = openTemp(() => now);
    crashedMidStep(journal, { runner: 'r1', pid: 4242, beat: 9_000 });
    now = 12_000;
    const report = runHealthCheck(journal, { isAlive: () => false });
    expect(report.findings.map((f) => f.mode)).toEqual(['dead_runner', 'orphaned_step']);
    expect(report.findings[1]!.action).toBe('reset to pending (interruption 1 of 3)');
    expect(step(journal)).toMatchObject({ status: 'pending', failure_count: 1 });
    expect(journal.sql("SELECT outcome FROM attempts WHERE step_id = 's1'").get()).toEqual({ outcome: 'orphaned' });
    expect(journal.sql('SELECT status FROM runners').get()).toEqual({ status: 'dead' });
    expect(journal.sql('SELECT status FROM plans').get()).toEqual({ status: 'interrupted' });
    expect(journal.sql('SELECT code FROM runs').get()).toEqual({ code: 'interrupted' });
    const orphan = incidents(journal).find((i) => i.failure_mode === 'orphaned_step')!;
    expect(orphan).toMatchObject({
      plan_id: 'p',
      step_id: 's1',
      runner_id: 'r1',
      resolution: 'reset to pending (interruption 1 of 3)',
    });
    expect(JSON.parse(orphan.details!)).toMatchObject({ pid: 4242, attempt: 1, lastActuatorAt: 8_950 });
    // A second check finds nothing new: the step is no longer in progress.
    expect(runHealthCheck(journal, { isAlive: () => false }).findings).toEqual([]);
  });

  it('skips a step interrupted the maximum number of times', () => {
    const { journal } = openTemp(() => 5_000);
    crashedMidStep(journal, { runner: 'r1', pid: 1, beat: 4_000, failures: 2 });
    const report = runHealthCheck(journal, { isAlive: () => false });
    expect(report.findings[1]!.action).toBe('skipped after 3 interrupted attempts (max 3)');
    expect(step(journal).status).toBe('skipped');
  });

  it('marks a step succeeded when its idempotency key completed before the crash', () => {
    const { journal } = openTemp(() => 5_000);
    crashedMidStep(journal, { runner: 'r1', pid: 1, beat: 4_000, key: 'k1' });
    journal.sql("INSERT INTO idempotency (key, completed_at) VALUES ('k1', 4_500)").run();
    runHealthCheck(journal, { isAlive: () => false });
    expect(step(journal).status).toBe('succeeded');
  });

  it('calls a live but silent runner a zombie and leaves its steps alone', () => {
    let now = 100_000;
    const { journal } = openTemp(() => now);
    crashedMidStep(journal, { runner: 'r1', pid: 1, beat: 100_000 - 31_000 });
    const report = runHealthCheck(journal, { isAlive: () => true });
    expect(report.status).toBe('unhealthy');
    expect(report.findings.map((f) => f.mode)).toEqual(['zombie_runner']);
    expect(step(journal).status).toBe('in_progress');
    expect(incidents(journal)[0]!.resolved_at).toBeNull();
    // It beats again: the incident resolves and the runner is running once more.
    journal.sql("UPDATE runners SET last_heartbeat = ? WHERE id = 'r1'").run(now);
    now += 1_000;
    runHealthCheck(journal, { isAlive: () => true });
    expect(incidents(journal)[0]!.resolution).toBe('the runner beats again');
    expect(journal.sql('SELECT status FROM runners').get()).toEqual({ status: 'running' });
  });

  it('reports an attempt of a live runner open well past its deadline as hanging, once', () => {
    const { journal } = openTemp(() => 100_000);
    crashedMidStep(journal, { runner: 'r1', pid: 1, beat: 99_500, deadlineAt: 80_000 });
    const first = runHealthCheck(journal, { isAlive: () => true });
    expect(first.findings.map((f) => f.mode)).toEqual(['hanging_attempt']);
    expect(first.findings[0]!.summary).toContain('20s past its deadline');
    expect(runHealthCheck(journal, { isAlive: () => true }).findings).toEqual([]);
  });

  it('stops automatic recovery past the hourly incident limit and says so', () => {
    const now = 10 * HOUR;
    const { journal } = openTemp(() => now);
    for (let i = 0; i < 3; i++) journal.openIncident({ mode: 'orphaned_step', details: null, at: now - 1_000 });
    crashedMidStep(journal, { runner: 'r1', pid: 1, beat: now - 5_000 });
    const report = runHealthCheck(journal, { isAlive: () => false, config: { maxIncidentsPerHour: 3 } });
    expect(report.status).toBe('unhealthy');
    expect(report.recoveryPaused).toMatch(/^automatic recovery paused: 5 incidents in the last hour \(max 3\)/);
    expect(step(journal).status).toBe('in_progress');
    const orphan = incidents(journal).find((i) => i.step_id === 's1')!;
    expect(orphan.resolved_at).toBeNull();

    // Once the rate allows again, the same incident is recovered and resolved, not recorded twice.
    const later = runHealthCheck(journal, { isAlive: () => false, config: { maxIncidentsPerHour: 10 } });
    expect(later.recoveryPaused).toBeNull();
    expect(later.findings).toMatchObject([
      { mode: 'orphaned_step', incidentId: orphan.id, action: 'reset to pending (interruption 1 of 3)' },
    ]);
    expect(step(journal).status).toBe('pending');
    expect(incidents(journal).filter((i) => i.step_id === 's1')).toHaveLength(1);
  });

  it('resolves a hanging-attempt incident when the attempt finally ends', () => {
    const { journal } = openTemp(() => 100_000);
    crashedMidStep(journal, { runner: 'r1', pid: 1, beat: 99_500, deadlineAt: 80_000 });
    expect(runHealthCheck(journal, { isAlive: () => true }).status).toBe('unhealthy');
    expect(runHealthCheck(journal, { isAlive: () => true }).status).toBe('unhealthy');
    journal.sql("UPDATE attempts SET ended_at = 100000, outcome = 'deadline_exceeded'").run();
    journal.sql("UPDATE steps SET status = 'failed'").run();
    const report = runHealthCheck(journal, { isAlive: () => true });
    expect(report.status).toBe('healthy');
    expect(incidents(journal)[0]!.resolution).toBe('the attempt ended (deadline_exceeded)');
  });
});
