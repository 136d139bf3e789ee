import { HealthConfig, type HealthConfigInput } from './health-config.js';
import { FAILURE_MODES, type FailureMode, type HealthFinding } from './health-types.js';
import type { Journal } from './journal.js';
import { processAlive } from './process-alive.js';

export { FAILURE_MODES, type FailureMode, type HealthFinding } from './health-types.js';

export interface HealthReport {
  at: number;
  status: 'healthy' | 'degraded' | 'unhealthy';
  checks: { type: FailureMode; found: number; healthy: boolean }[];
  findings: HealthFinding[];
  /** Set when the incident rate stopped automatic recovery. */
  recoveryPaused: string | null;
  /** Set when another process (a gateway or worker sharing the journal) ran the sweep: this one skipped its round. */
  skipped: string | null;
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

/**
 * One pass of detection and graduated recovery over the journal (`healthSweep` in sql/health-sweep.ts): dead and
 * zombie runners by pid and heartbeat, orphaned in-progress steps (reset to
 * pending, or skipped after N interruptions, or marked done when their idempotency key completed; a fleet bot's left
 * to its next holder), in-flight idempotency claims of runners that are gone, hanging attempts of live runners, and
 * fleet leases that lapsed. Each finding is an incident; past the hourly limit, nothing is reset. On PostgreSQL one
 * process sweeps at a time: a recovering check that finds another sweeping skips its round (`skipped`).
 */
export async function runHealthCheck(journal: Journal, options: HealthCheckOptions = {}): Promise<HealthReport> {
  const config = HealthConfig.parse(options.config ?? {});
  const dryRun = options.dryRun === true;
  const sweep = await journal.healthSweep({
    config,
    isAlive: options.isAlive ?? processAlive,
    dryRun,
    ...(options.selfRunnerId ? { selfRunnerId: options.selfRunnerId } : {}),
  });
  const findings = dryRun
    ? sweep.findings.map((finding) => ({
        ...finding,
        incidentId: 0,
        action: `not done, this was a read: ${finding.action}`,
      }))
    : sweep.findings;
  const checks = FAILURE_MODES.map((type) => {
    const found = findings.filter((f) => f.mode === type).length;
    return { type, found, healthy: found === 0 };
  });
  // Zombies and hanging attempts stay serious until resolved, not only in the check that found them.
  const status =
    sweep.recoveryPaused || sweep.seriousIncidents > 0
      ? 'unhealthy'
      : findings.length > 0 || sweep.activeIncidents > 0
        ? 'degraded'
        : 'healthy';
  return {
    at: sweep.at,
    status,
    checks,
    findings,
    recoveryPaused: sweep.recoveryPaused,
    skipped: sweep.skipped,
    activeIncidents: sweep.activeIncidents,
    recentIncidents: sweep.recentIncidents,
  };
}
