import { hostname } from 'node:os';
import { longestWallWaitMs } from '../../clock/lag-discounting-clock.js';
import type { HealthConfig } from '../health-config.js';
import type { HealthFinding, HealthSweep } from '../health-types.js';
import { WORKER_RUNNER_KIND, type RunnerRow, type StepRow, type StepStatus } from '../rows.js';
import { checkLeases, fleetOrphan, settleFleetOrphans } from './fleet-health.js';
import { keyCompleted, releaseClaimsOfGoneRunners } from './ledger.js';
import { moveStep, openIncident, resolveIncident } from './record.js';
import { all, count, dbNow, get, run, type Tx } from './tx.js';

const HOUR = 3_600_000;
const seconds = (ms: number) => `${Math.round(ms / 1000)}s`;

interface Sweep {
  config: HealthConfig;
  now: number;
  self: string | undefined;
  isAlive: (pid: number) => boolean;
  findings: HealthFinding[];
  paused: string | null;
}

/**
 * One pass of detection and graduated recovery: dead and zombie runners by pid and heartbeat, orphaned in-progress
 * steps (reset to pending, or skipped after N interruptions, or marked
 * done when their idempotency key completed; a fleet bot's are left to its next holder), in-flight idempotency
 * claims of runners that are gone (released), hanging attempts of live runners, and fleet leases that lapsed. Each
 * finding is an incident; past the hourly limit, nothing is reset.
 *
 * `trySweeperSql`, when given, first tries to take the sweeper's lock (a row `{ got }`): when another process holds
 * it, this pass is skipped and changes nothing.
 */
export function* healthSweep(
  options: {
    config: HealthConfig;
    selfRunnerId?: string;
    isAlive: (pid: number) => boolean;
    dryRun: boolean;
  },
  trySweeperSql: string | null = null,
): Tx<HealthSweep> {
  const sweep: Sweep = {
    config: options.config,
    now: yield* dbNow(),
    self: options.selfRunnerId,
    isAlive: options.isAlive,
    findings: [],
    paused: null,
  };
  if (trySweeperSql !== null && !truthy((yield* get<{ got: unknown }>(trySweeperSql))?.got))
    return {
      at: sweep.now,
      findings: [],
      recoveryPaused: null,
      skipped: 'another process is running the health sweep; this round was skipped',
      ...(yield* incidentCounts(sweep.now)),
    };
  // The incidents as the journal holds them after the check: for a dry run, which writes nothing, as they were.
  const before = options.dryRun ? yield* incidentCounts(sweep.now) : null;
  yield* checkRunners(sweep);
  yield* releaseClaimsOfGoneRunners();
  yield* checkOrphans(sweep);
  yield* checkHanging(sweep);
  yield* checkLeases(sweep);
  return {
    at: sweep.now,
    findings: sweep.findings,
    recoveryPaused: sweep.paused,
    skipped: null,
    ...(before ?? (yield* incidentCounts(sweep.now))),
  };
}

/** A boolean as either engine returns it (PostgreSQL true, SQLite 1). */
const truthy = (value: unknown) => value === true || value === 1 || value === '1';

function* incidentCounts(
  now: number,
): Tx<Pick<HealthSweep, 'activeIncidents' | 'seriousIncidents' | 'recentIncidents'>> {
  return {
    activeIncidents: yield* count('SELECT COUNT(*) AS n FROM incidents WHERE resolved_at IS NULL'),
    seriousIncidents: yield* count(
      "SELECT COUNT(*) AS n FROM incidents WHERE resolved_at IS NULL AND failure_mode IN ('hanging_attempt', 'zombie_runner')",
    ),
    recentIncidents: yield* countSince(now - 24 * HOUR),
  };
}

function* countSince(since: number): Tx<number> {
  return yield* count('SELECT COUNT(*) AS n FROM incidents WHERE detected_at > ?', since);
}

function* recoveryAllowed(sweep: Sweep): Tx<boolean> {
  if (!sweep.config.autoRecover) {
    sweep.paused = 'automatic recovery is off (autoRecover: false)';
    return false;
  }
  const recent = yield* countSince(sweep.now - HOUR);
  if (recent > sweep.config.maxIncidentsPerHour) {
    sweep.paused = `automatic recovery paused: ${recent} incidents in the last hour (max ${sweep.config.maxIncidentsPerHour}); find the cause, then run again with a higher --max-incidents-per-hour or wait`;
    return false;
  }
  return true;
}

function* checkRunners(sweep: Sweep): Tx<void> {
  const here = hostname();
  const runners = yield* all<RunnerRow>("SELECT * FROM runners WHERE status IN ('running', 'zombie')");
  for (const runner of runners) {
    if (runner.id === sweep.self) continue;
    const silentMs = sweep.now - runner.last_heartbeat;
    const openZombie = yield* get<{ id: number }>(
      "SELECT id FROM incidents WHERE runner_id = ? AND failure_mode = 'zombie_runner' AND resolved_at IS NULL",
      runner.id,
    );
    if (yield* gone(sweep, runner, here, silentMs)) yield* deadRunner(sweep, runner, silentMs, openZombie);
    else if (silentMs > sweep.config.runnerHeartbeatTimeoutMs) {
      if (openZombie) continue;
      yield* run("UPDATE runners SET status = 'zombie' WHERE id = ?", runner.id);
      const id = yield* openIncident({
        runnerId: runner.id,
        mode: 'zombie_runner',
        details: { pid: runner.pid, host: runner.host, silentMs, timeoutMs: sweep.config.runnerHeartbeatTimeoutMs },
      });
      sweep.findings.push({
        mode: 'zombie_runner',
        incidentId: id,
        runnerId: runner.id,
        ...(runner.kind === WORKER_RUNNER_KIND
          ? {
              summary: `worker ${runner.id} (pid ${runner.pid} on ${runner.host}) is silent for ${seconds(silentMs)} but still holds a bot lease`,
              action:
                'none automatic: its leases lapse by the database clock; whoever takes each bot next resumes its steps through the live-world check',
            }
          : {
              summary: `runner pid ${runner.pid} (verbtree ${runner.kind}) is alive but silent for ${seconds(silentMs)}`,
              action: `none automatic: stop pid ${runner.pid}; its steps are recovered once it is gone`,
            }),
      });
    } else if (runner.status === 'zombie') {
      yield* run("UPDATE runners SET status = 'running' WHERE id = ?", runner.id);
      if (openZombie) yield* resolveIncident(openZombie.id, 'the runner beats again');
    }
  }
}

/**
 * A runner is gone when its process is (a pid of this host no longer alive). A fleet worker is never judged by a pid,
 * which may be another machine's or another namespace's: it is gone when it has been silent past the heartbeat timeout
 * and holds no bot lease any more (each lapses by the database's clock).
 */
function* gone(sweep: Sweep, runner: RunnerRow, here: string, silentMs: number): Tx<boolean> {
  if (runner.kind !== WORKER_RUNNER_KIND) return runner.host === here && !sweep.isAlive(runner.pid);
  if (silentMs <= sweep.config.runnerHeartbeatTimeoutMs) return false;
  const leases = yield* count(
    'SELECT COUNT(*) AS n FROM bot_leases WHERE holder = ? AND expires_at > verbtree_now()',
    runner.id,
  );
  return leases === 0;
}

function* deadRunner(sweep: Sweep, runner: RunnerRow, silentMs: number, openZombie: { id: number } | undefined) {
  yield* run("UPDATE runners SET status = 'dead', stopped_at = ? WHERE id = ?", sweep.now, runner.id);
  if (openZombie) yield* resolveIncident(openZombie.id, `the process ${runner.pid} is gone`);
  const inProgress = yield* count(
    "SELECT COUNT(*) AS n FROM steps s JOIN runs r ON r.id = s.run_id WHERE r.runner_id = ? AND s.status = 'in_progress'",
    runner.id,
  );
  const claims = yield* count(
    "SELECT COUNT(*) AS n FROM idempotency WHERE state = 'in_flight' AND runner_id = ?",
    runner.id,
  );
  const action =
    `marked dead; ${inProgress} in-progress step${inProgress === 1 ? '' : 's'} left as orphans` +
    (claims > 0 ? `; ${claims} in-flight idempotency claim${claims === 1 ? '' : 's'} released` : '');
  const details = {
    pid: runner.pid,
    host: runner.host,
    kind: runner.kind,
    lastHeartbeat: runner.last_heartbeat,
    silentMs,
  };
  const id = yield* openIncident({ runnerId: runner.id, mode: 'dead_runner', details });
  yield* resolveIncident(id, action);
  sweep.findings.push({
    mode: 'dead_runner',
    incidentId: id,
    runnerId: runner.id,
    summary:
      runner.kind === WORKER_RUNNER_KIND
        ? `worker ${runner.id} (pid ${runner.pid} on ${runner.host}) is silent for ${seconds(silentMs)} and holds no bot lease`
        : `runner pid ${runner.pid} (verbtree ${runner.kind}) is gone; last beat ${seconds(silentMs)} ago`,
    action,
  });
}

type OrphanRow = StepRow & {
  runner_id: string | null;
  runner_status: string | null;
  runner_pid: number | null;
  bot: string | null;
  bot_held: number;
};

function* checkOrphans(sweep: Sweep): Tx<void> {
  const rows = yield* all<OrphanRow>(
    `SELECT s.*, r.runner_id AS runner_id, rn.status AS runner_status, rn.pid AS runner_pid, p.bot AS bot,
       CASE WHEN l.holder IS NOT NULL AND l.expires_at > ? THEN 1 ELSE 0 END AS bot_held
     FROM steps s LEFT JOIN runs r ON r.id = s.run_id LEFT JOIN runners rn ON rn.id = r.runner_id
       LEFT JOIN plans p ON p.plan_id = s.plan_id LEFT JOIN bot_leases l ON l.bot = p.bot
     WHERE s.status = 'in_progress' ORDER BY s.plan_id, s.seq`,
    sweep.now,
  );
  for (const step of rows) {
    // A fleet bot's step belongs to whoever holds the bot: orphaned only while nobody does, and left to its next holder.
    if (step.bot !== null && step.bot !== undefined) {
      if (Number(step.bot_held) === 0) yield* fleetOrphan(sweep, step, step.bot);
      continue;
    }
    const owned = step.runner_id !== null && step.runner_id !== undefined;
    const orphaned = owned
      ? step.runner_id !== sweep.self && (step.runner_status === 'dead' || step.runner_status === 'stopped')
      : sweep.now - step.updated_at > sweep.config.orphanedStepTimeoutMs;
    if (orphaned) yield* recoverOrphan(sweep, step);
  }
  yield* settleFleetOrphans();
}

function* recoverOrphan(sweep: Sweep, step: OrphanRow): Tx<void> {
  // Recorded by an earlier check while recovery was paused: recover it now if allowed, without a second incident.
  const known = yield* get<{ id: number }>(
    "SELECT id FROM incidents WHERE plan_id = ? AND step_id = ? AND failure_mode = 'orphaned_step' AND resolved_at IS NULL",
    step.plan_id,
    step.step_id,
  );
  if (known) {
    if (!(yield* recoveryAllowed(sweep))) return;
    const why = yield* recover(sweep, step, step.failure_count);
    yield* resolveIncident(known.id, why);
    sweep.findings.push({
      mode: 'orphaned_step',
      incidentId: known.id,
      planId: step.plan_id,
      stepId: step.step_id,
      summary: `${step.plan_id}/${step.step_id} (${step.verb}) recorded earlier, recovery was paused`,
      action: why,
    });
    return;
  }
  const attempt = yield* get<{ id: number; number: number; started_at: number; last_actuator_at: number | null }>(
    'SELECT id, number, started_at, last_actuator_at FROM attempts WHERE plan_id = ? AND step_id = ? ORDER BY id DESC LIMIT 1',
    step.plan_id,
    step.step_id,
  );
  yield* run(
    "UPDATE attempts SET ended_at = ?, outcome = 'orphaned', detail = 'the runner died during the attempt' WHERE plan_id = ? AND step_id = ? AND ended_at IS NULL",
    sweep.now,
    step.plan_id,
    step.step_id,
  );
  yield* run(
    "UPDATE runs SET ended_at = ?, ok = 0, code = 'interrupted', detail = 'the runner died mid-plan' WHERE id = ? AND ended_at IS NULL",
    sweep.now,
    step.run_id,
  );
  yield* run(
    "UPDATE plans SET status = 'interrupted', updated_at = ? WHERE plan_id = ? AND status = 'running'",
    sweep.now,
    step.plan_id,
  );
  const failures = step.failure_count + 1;
  yield* run(
    'UPDATE steps SET failure_count = ? WHERE plan_id = ? AND step_id = ?',
    failures,
    step.plan_id,
    step.step_id,
  );
  const id = yield* openIncident({
    planId: step.plan_id,
    stepId: step.step_id,
    runnerId: step.runner_id,
    attemptId: attempt?.id ?? null,
    mode: 'orphaned_step',
    details: {
      runnerId: step.runner_id,
      pid: step.runner_pid,
      attempt: attempt?.number ?? null,
      attemptStartedAt: attempt?.started_at ?? null,
      lastActuatorAt: attempt?.last_actuator_at ?? null,
      inProgressForMs: sweep.now - step.updated_at,
      failureCount: failures,
    },
  });
  let action = 'left in progress';
  if (yield* recoveryAllowed(sweep)) {
    action = yield* recover(sweep, step, failures);
    yield* resolveIncident(id, action);
  }
  sweep.findings.push({
    mode: 'orphaned_step',
    incidentId: id,
    planId: step.plan_id,
    stepId: step.step_id,
    ...(step.runner_id ? { runnerId: step.runner_id } : {}),
    summary: `${step.plan_id}/${step.step_id} (${step.verb}) in progress, its runner${step.runner_pid ? ` pid ${step.runner_pid}` : ''} is ${step.runner_status ?? 'unknown'}`,
    action,
  });
}

/** Moves an orphan on: done when its idempotency key completed, skipped past the limit, else pending again. */
function* recover(sweep: Sweep, step: StepRow, failures: number): Tx<string> {
  const [to, why] = yield* recoveryFor(sweep.config, step, failures);
  // The orphan's own claim on its key dies with it; another plan's claim on the same key is not the orphan's to
  // release.
  if (step.idempotency_key)
    yield* run(
      "DELETE FROM idempotency WHERE key = ? AND state = 'in_flight' AND plan_id = ? AND step_id = ?",
      step.idempotency_key,
      step.plan_id,
      step.step_id,
    );
  yield* moveStep(step.plan_id, step.step_id, to, `health check: ${why}`, null);
  return why;
}

function* recoveryFor(config: HealthConfig, step: StepRow, failures: number): Tx<[StepStatus, string]> {
  if (step.idempotency_key && (yield* keyCompleted(step.idempotency_key)))
    return ['succeeded', `marked succeeded: its idempotency key "${step.idempotency_key}" completed before the crash`];
  if (failures >= config.maxRecoveryAttempts)
    return ['skipped', `skipped after ${failures} interrupted attempts (max ${config.maxRecoveryAttempts})`];
  return ['pending', `reset to pending (interruption ${failures} of ${config.maxRecoveryAttempts})`];
}

/**
 * Past its deadline in wall time by more than the grace, and past the longest its runner's lag-discounting clock can
 * stretch that deadline too: a step's deadline counts only the time its process had, so a loaded runner's step still
 * inside its own budget is no hang. The window runs from the first attempt of the run (the deadline is written as the
 * step starts, or later when it resumes), so it is never shorter than the runner's.
 */
function stillHangingAt(
  sweep: Sweep,
  attempt: { deadline_at: number; step_started_at: number; started_at: number },
): boolean {
  const from = Math.min(attempt.step_started_at, attempt.started_at);
  return sweep.now > from + longestWallWaitMs(attempt.deadline_at - from) + sweep.config.hangingGraceMs;
}

function* checkHanging(sweep: Sweep): Tx<void> {
  const rows = yield* all<{
    id: number;
    plan_id: string;
    step_id: string;
    number: number;
    started_at: number;
    last_actuator_at: number | null;
    deadline_at: number;
    step_started_at: number;
    verb: string;
    runner_id: string;
    pid: number;
  }>(
    `SELECT a.id, a.plan_id, a.step_id, a.number, a.started_at, a.last_actuator_at, s.deadline_at, s.verb, rn.id AS runner_id, rn.pid,
       (SELECT MIN(f.started_at) FROM attempts f WHERE f.plan_id = a.plan_id AND f.step_id = a.step_id AND f.run_id = a.run_id) AS step_started_at
     FROM attempts a JOIN steps s ON s.plan_id = a.plan_id AND s.step_id = a.step_id
     JOIN runs r ON r.id = a.run_id JOIN runners rn ON rn.id = r.runner_id
     WHERE a.ended_at IS NULL AND s.status = 'in_progress' AND rn.status = 'running' AND s.deadline_at IS NOT NULL AND s.deadline_at + ? < ?`,
    sweep.config.hangingGraceMs,
    sweep.now,
  );
  const settled = yield* all<{ id: number; outcome: string | null }>(
    "SELECT i.id, a.outcome FROM incidents i JOIN attempts a ON a.id = i.attempt_id WHERE i.failure_mode = 'hanging_attempt' AND i.resolved_at IS NULL AND a.ended_at IS NOT NULL",
  );
  for (const incident of settled)
    yield* resolveIncident(incident.id, `the attempt ended (${incident.outcome ?? 'no outcome'})`);
  for (const attempt of rows.filter((row) => stillHangingAt(sweep, row))) {
    if (
      yield* get<{ id: number }>(
        "SELECT id FROM incidents WHERE attempt_id = ? AND failure_mode = 'hanging_attempt'",
        attempt.id,
      )
    )
      continue;
    const overMs = sweep.now - attempt.deadline_at;
    const id = yield* openIncident({
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
    });
    sweep.findings.push({
      mode: 'hanging_attempt',
      incidentId: id,
      planId: attempt.plan_id,
      stepId: attempt.step_id,
      runnerId: attempt.runner_id,
      summary: `${attempt.plan_id}/${attempt.step_id} (${attempt.verb}) attempt ${attempt.number} is ${seconds(overMs)} past its deadline`,
      action: `none automatic: runner pid ${attempt.pid} is alive and owns it; stop that process if it does not end, then run the check again`,
    });
  }
}
