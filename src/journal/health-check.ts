import { hostname } from 'node:os';
import { HealthConfig, type HealthConfigInput } from './health-config.js';
import type { Journal } from './journal.js';
import { processAlive } from './process-alive.js';
import type { RunnerRow, StepRow, StepStatus } from './rows.js';

export type FailureMode = 'orphaned_step' | 'hanging_attempt' | 'zombie_runner' | 'dead_runner';
export const FAILURE_MODES: readonly FailureMode[] = [
  'orphaned_step',
  'hanging_attempt',
  'zombie_runner',
  'dead_runner',
];

export interface HealthFinding {
  mode: FailureMode;
  incidentId: number;
  planId?: string;
  stepId?: string;
  runnerId?: string;
  summary: string;
  /** What the check did about it, or why it did nothing. */
  action: string;
}

export interface HealthReport {
  at: number;
  status: 'healthy' | 'degraded' | 'unhealthy';
  checks: { type: FailureMode; found: number; healthy: boolean }[];
  findings: HealthFinding[];
  /** Set when the incident rate stopped automatic recovery. */
  recoveryPaused: string | null;
  activeIncidents: number;
  recentIncidents: number;
}

export interface HealthCheckOptions {
  config?: HealthConfigInput;
  /** This process's own runner: never judged by its own check. */
  selfRunnerId?: string;
  isAlive?: (pid: number) => boolean;
  /**
   * Report what a check would find and do, and write nothing: every change is rolled back. For reads
   * (GET /api/health); the findings' actions say what a real check would do, and their incidentId is 0.
   */
  dryRun?: boolean;
}

const HOUR = 3_600_000;
const seconds = (ms: number) => `${Math.round(ms / 1000)}s`;

/**
 * One pass of detection and graduated recovery over the journal: dead and
 * zombie runners by pid and heartbeat, orphaned in-progress steps (reset to
 * pending, or skipped after N interruptions, or marked done when their
 * idempotency key completed), and hanging attempts of live runners. Each
 * finding is an incident; past the hourly limit, nothing is reset.
 */
export function runHealthCheck(journal: Journal, options: HealthCheckOptions = {}): HealthReport {
  const config = HealthConfig.parse(options.config ?? {});
  const isAlive = options.isAlive ?? processAlive;
  const now = journal.now();
  const findings: HealthFinding[] = [];
  let paused: string | null = null;
  const recoveryAllowed = (): boolean => {
    if (!config.autoRecover) {
      paused = 'automatic recovery is off (autoRecover: false)';
      return false;
    }
    const recent = countSince(journal, now - HOUR);
    if (recent > config.maxIncidentsPerHour) {
      paused = `automatic recovery paused: ${recent} incidents in the last hour (max ${config.maxIncidentsPerHour}); find the cause, then run again with a higher --max-incidents-per-hour or wait`;
      return false;
    }
    return true;
  };

  const check = () => {
    checkRunners(journal, config, now, isAlive, options.selfRunnerId, findings);
    checkOrphans(journal, config, now, options.selfRunnerId, findings, recoveryAllowed);
    checkHanging(journal, config, now, findings);
  };
  if (options.dryRun) {
    rolledBack(journal, check);
    for (const finding of findings) {
      finding.incidentId = 0;
      finding.action = `not done, this was a read: ${finding.action}`;
    }
  } else {
    journal.write(check);
  }

  const checks = FAILURE_MODES.map((type) => {
    const found = findings.filter((f) => f.mode === type).length;
    return { type, found, healthy: found === 0 };
  });
  const activeIncidents = (
    journal.sql('SELECT COUNT(*) AS n FROM incidents WHERE resolved_at IS NULL').get() as { n: number }
  ).n;
  // Zombies and hanging attempts stay serious until resolved, not only in the check that found them.
  const serious =
    (
      journal
        .sql(
          "SELECT COUNT(*) AS n FROM incidents WHERE resolved_at IS NULL AND failure_mode IN ('hanging_attempt', 'zombie_runner')",
        )
        .get() as { n: number }
    ).n > 0;
  const status = paused || serious ? 'unhealthy' : findings.length > 0 || activeIncidents > 0 ? 'degraded' : 'healthy';
  return {
    at: now,
    status,
    checks,
    findings,
    recoveryPaused: paused,
    activeIncidents,
    recentIncidents: countSince(journal, now - 24 * HOUR),
  };
}

/** Runs `fn` in a transaction that is always rolled back. */
function rolledBack(journal: Journal, fn: () => void): void {
  // Deferred: a read takes the write lock only if the check would write, and only until the rollback.
  journal.db.exec('BEGIN');
  try {
    fn();
  } finally {
    journal.db.exec('ROLLBACK');
  }
}

function countSince(journal: Journal, since: number): number {
  return (journal.sql('SELECT COUNT(*) AS n FROM incidents WHERE detected_at > ?').get(since) as { n: number }).n;
}

function checkRunners(
  journal: Journal,
  config: HealthConfig,
  now: number,
  isAlive: (pid: number) => boolean,
  self: string | undefined,
  findings: HealthFinding[],
): void {
  const here = hostname();
  const runners = journal.sql("SELECT * FROM runners WHERE status IN ('running', 'zombie')").all() as RunnerRow[];
  for (const runner of runners) {
    if (runner.id === self) continue;
    const silentMs = now - runner.last_heartbeat;
    const openZombie = journal
      .sql("SELECT id FROM incidents WHERE runner_id = ? AND failure_mode = 'zombie_runner' AND resolved_at IS NULL")
      .get(runner.id) as { id: number } | undefined;
    if (runner.host === here && !isAlive(runner.pid)) {
      journal.sql("UPDATE runners SET status = 'dead', stopped_at = ? WHERE id = ?").run(now, runner.id);
      if (openZombie) journal.resolveIncident(openZombie.id, `the process ${runner.pid} is gone`, now);
      const inProgress = (
        journal
          .sql(
            "SELECT COUNT(*) AS n FROM steps s JOIN runs r ON r.id = s.run_id WHERE r.runner_id = ? AND s.status = 'in_progress'",
          )
          .get(runner.id) as { n: number }
      ).n;
      const action = `marked dead; ${inProgress} in-progress step${inProgress === 1 ? '' : 's'} left as orphans`;
      const id = journal.openIncident({
        runnerId: runner.id,
        mode: 'dead_runner',
        details: {
          pid: runner.pid,
          host: runner.host,
          kind: runner.kind,
          lastHeartbeat: runner.last_heartbeat,
          silentMs,
        },
        at: now,
      });
      journal.resolveIncident(id, action, now);
      findings.push({
        mode: 'dead_runner',
        incidentId: id,
        runnerId: runner.id,
        summary: `runner pid ${runner.pid} (verbtree ${runner.kind}) is gone; last beat ${seconds(silentMs)} ago`,
        action,
      });
    } else if (silentMs > config.runnerHeartbeatTimeoutMs) {
      if (openZombie) continue;
      journal.sql("UPDATE runners SET status = 'zombie' WHERE id = ?").run(runner.id);
      const action = `none automatic: stop pid ${runner.pid}; its steps are recovered once it is gone`;
      const id = journal.openIncident({
        runnerId: runner.id,
        mode: 'zombie_runner',
        details: { pid: runner.pid, host: runner.host, silentMs, timeoutMs: config.runnerHeartbeatTimeoutMs },
        at: now,
      });
      findings.push({
        mode: 'zombie_runner',
        incidentId: id,
        runnerId: runner.id,
        summary: `runner pid ${runner.pid} (verbtree ${runner.kind}) is alive but silent for ${seconds(silentMs)}`,
        action,
      });
    } else if (runner.status === 'zombie') {
      journal.sql("UPDATE runners SET status = 'running' WHERE id = ?").run(runner.id);
      if (openZombie) journal.resolveIncident(openZombie.id, 'the runner beats again', now);
    }
  }
}

type OrphanRow = StepRow & { runner_id: string | null; runner_status: string | null; runner_pid: number | null };

function checkOrphans(
  journal: Journal,
  config: HealthConfig,
  now: number,
  self: string | undefined,
  findings: HealthFinding[],
  recoveryAllowed: () => boolean,
): void {
  const rows = journal
    .sql(
      `SELECT s.*, r.runner_id AS runner_id, rn.status AS runner_status, rn.pid AS runner_pid
       FROM steps s LEFT JOIN runs r ON r.id = s.run_id LEFT JOIN runners rn ON rn.id = r.runner_id
       WHERE s.status = 'in_progress' ORDER BY s.plan_id, s.seq`,
    )
    .all() as OrphanRow[];
  for (const step of rows) {
    const owned = step.runner_id !== null && step.runner_id !== undefined;
    const orphaned = owned
      ? step.runner_id !== self && (step.runner_status === 'dead' || step.runner_status === 'stopped')
      : now - step.updated_at > config.orphanedStepTimeoutMs;
    if (!orphaned) continue;
    // Recorded by an earlier check while recovery was paused: recover it now if allowed, without a second incident.
    const known = journal
      .sql(
        "SELECT id FROM incidents WHERE plan_id = ? AND step_id = ? AND failure_mode = 'orphaned_step' AND resolved_at IS NULL",
      )
      .get(step.plan_id, step.step_id) as { id: number } | undefined;
    if (known) {
      if (!recoveryAllowed()) continue;
      const [to, why] = recoveryFor(journal, step, step.failure_count, config);
      journal.transition(step.plan_id, step.step_id, to, `health check: ${why}`, null, now);
      journal.resolveIncident(known.id, why, now);
      findings.push({
        mode: 'orphaned_step',
        incidentId: known.id,
        planId: step.plan_id,
        stepId: step.step_id,
        summary: `${step.plan_id}/${step.step_id} (${step.verb}) recorded earlier, recovery was paused`,
        action: why,
      });
      continue;
    }
    const attempt = journal
      .sql('SELECT * FROM attempts WHERE plan_id = ? AND step_id = ? ORDER BY id DESC LIMIT 1')
      .get(step.plan_id, step.step_id) as
      | { id: number; number: number; started_at: number; last_actuator_at: number | null; ended_at: number | null }
      | undefined;
    journal
      .sql(
        "UPDATE attempts SET ended_at = ?, outcome = 'orphaned', detail = 'the runner died during the attempt' WHERE plan_id = ? AND step_id = ? AND ended_at IS NULL",
      )
      .run(now, step.plan_id, step.step_id);
    journal
      .sql(
        "UPDATE runs SET ended_at = ?, ok = 0, code = 'interrupted', detail = 'the runner died mid-plan' WHERE id = ? AND ended_at IS NULL",
      )
      .run(now, step.run_id);
    journal
      .sql("UPDATE plans SET status = 'interrupted', updated_at = ? WHERE plan_id = ? AND status = 'running'")
      .run(now, step.plan_id);
    const failures = step.failure_count + 1;
    journal
      .sql('UPDATE steps SET failure_count = ? WHERE plan_id = ? AND step_id = ?')
      .run(failures, step.plan_id, step.step_id);
    const details = {
      runnerId: step.runner_id,
      pid: step.runner_pid,
      attempt: attempt?.number ?? null,
      attemptStartedAt: attempt?.started_at ?? null,
      lastActuatorAt: attempt?.last_actuator_at ?? null,
      inProgressForMs: now - step.updated_at,
      failureCount: failures,
    };
    const id = journal.openIncident({
      planId: step.plan_id,
      stepId: step.step_id,
      runnerId: step.runner_id,
      attemptId: attempt?.id ?? null,
      mode: 'orphaned_step',
      details,
      at: now,
    });
    let action = 'left in progress';
    if (recoveryAllowed()) {
      const [to, why] = recoveryFor(journal, step, failures, config);
      journal.transition(step.plan_id, step.step_id, to, `health check: ${why}`, null, now);
      action = why;
      journal.resolveIncident(id, action, now);
    }
    findings.push({
      mode: 'orphaned_step',
      incidentId: id,
      planId: step.plan_id,
      stepId: step.step_id,
      ...(step.runner_id ? { runnerId: step.runner_id } : {}),
      summary: `${step.plan_id}/${step.step_id} (${step.verb}) in progress, its runner${step.runner_pid ? ` pid ${step.runner_pid}` : ''} is ${step.runner_status ?? 'unknown'}`,
      action,
    });
  }
}

function recoveryFor(journal: Journal, step: StepRow, failures: number, config: HealthConfig): [StepStatus, string] {
  if (step.idempotency_key) {
    const done = journal.sql('SELECT completed_at FROM idempotency WHERE key = ?').get(step.idempotency_key);
    if (done)
      return [
        'succeeded',
        `marked succeeded: its idempotency key "${step.idempotency_key}" completed before the crash`,
      ];
  }
  if (failures >= config.maxRecoveryAttempts)
    return ['skipped', `skipped after ${failures} interrupted attempts (max ${config.maxRecoveryAttempts})`];
  return ['pending', `reset to pending (interruption ${failures} of ${config.maxRecoveryAttempts})`];
}

function checkHanging(journal: Journal, config: HealthConfig, now: number, findings: HealthFinding[]): void {
  const rows = journal
    .sql(
      `SELECT a.id, a.plan_id, a.step_id, a.number, a.started_at, a.last_actuator_at, s.deadline_at, s.verb, rn.id AS runner_id, rn.pid
       FROM attempts a JOIN steps s ON s.plan_id = a.plan_id AND s.step_id = a.step_id
       JOIN runs r ON r.id = a.run_id JOIN runners rn ON rn.id = r.runner_id
       WHERE a.ended_at IS NULL AND s.status = 'in_progress' AND rn.status = 'running' AND s.deadline_at IS NOT NULL AND s.deadline_at + ? < ?`,
    )
    .all(config.hangingGraceMs, now) as {
    id: number;
    plan_id: string;
    step_id: string;
    number: number;
    started_at: number;
    last_actuator_at: number | null;
    deadline_at: number;
    verb: string;
    runner_id: string;
    pid: number;
  }[];
  const settled = journal
    .sql(
      "SELECT i.id, a.outcome FROM incidents i JOIN attempts a ON a.id = i.attempt_id WHERE i.failure_mode = 'hanging_attempt' AND i.resolved_at IS NULL AND a.ended_at IS NOT NULL",
    )
    .all() as { id: number; outcome: string | null }[];
  for (const incident of settled)
    journal.resolveIncident(incident.id, `the attempt ended (${incident.outcome ?? 'no outcome'})`, now);
  for (const attempt of rows) {
    if (
      journal.sql("SELECT id FROM incidents WHERE attempt_id = ? AND failure_mode = 'hanging_attempt'").get(attempt.id)
    )
      continue;
    const overMs = now - attempt.deadline_at;
    const action = `none automatic: runner pid ${attempt.pid} is alive and owns it; stop that process if it does not end, then run the check again`;
    const id = journal.openIncident({
      planId: attempt.plan_id,
      stepId: attempt.step_id,
      runnerId: attempt.runner_id,
      attemptId: attempt.id,
      mode: 'hanging_attempt',
      details: {
        attempt: attempt.number,
        startedAt: attempt.started_at,
        deadlineAt: attempt.deadline_at,
        overMs,
        lastActuatorAt: attempt.last_actuator_at,
      },
      at: now,
    });
    findings.push({
      mode: 'hanging_attempt',
      incidentId: id,
      planId: attempt.plan_id,
      stepId: attempt.step_id,
      runnerId: attempt.runner_id,
      summary: `${attempt.plan_id}/${attempt.step_id} (${attempt.verb}) attempt ${attempt.number} is ${seconds(overMs)} past its deadline`,
      action,
    });
  }
}
