export {
  DEFAULT_JOURNAL_PATH,
  JournalOpenError,
  LeaseLostError,
  type BeginRun,
  type EventRecord,
  type Journal,
  type PlannedStep,
} from './journal.js';
export { openJournal, isPostgresUrl, maskUrl, type OpenJournalOptions } from './open.js';
export { SqliteJournal, type SqliteJournalOptions } from './sqlite/sqlite-journal.js';
export { MIGRATIONS } from './sqlite/migrations.js';
export { UnknownBotError, type Interruption } from './sql/fleet.js';
export { RunnerInUseError } from './sql/runners.js';
export type * from './rows.js';
export { WORKER_RUNNER_KIND } from './rows.js';
export type * from './views.js';
export { JournalRecorder, type PlannedRun, type RecorderOptions } from './recorder.js';
export { WriteQueue } from './write-queue.js';
export { traceActions, type ActionSink } from './action-trace.js';
export { snapshotWorld, type WorldSnapshot } from './world-snapshot.js';
export { JournalIdempotencyLedger } from './idempotency-ledger.js';
export { JournalRunner, DEFAULT_BEAT_MS, type RunnerOptions } from './runner.js';
export { HealthConfig, type HealthConfigInput } from './health-config.js';
export {
  runHealthCheck,
  FAILURE_MODES,
  type FailureMode,
  type HealthCheckOptions,
  type HealthFinding,
  type HealthReport,
} from './health-check.js';
export { processAlive } from './process-alive.js';
export {
  resumePoint,
  verifyInterruptedSteps,
  distrustUnsavedSteps,
  ResumeError,
  type ResumePoint,
  type ResumeVerdicts,
} from './resume.js';
export {
  PlanLease,
  LeaseHeldError,
  DEFAULT_LEASE_RENEW_MS,
  DEFAULT_LEASE_STALE_MS,
  type LeaseOptions,
} from './lease.js';
export { simWorldFromJournal } from './sim-restore.js';
export {
  assembleJournaled,
  PlanConflictError,
  type JournaledAssembly,
  type JournaledOptions,
} from './journaled-executor.js';
export * from './queries.js';
