export type FailureMode =
  'orphaned_step' | 'hanging_attempt' | 'zombie_runner' | 'dead_runner' | 'expired_lease' | 'dead_worker';
export const FAILURE_MODES: readonly FailureMode[] = [
  'orphaned_step',
  'hanging_attempt',
  'zombie_runner',
  'dead_runner',
  'expired_lease',
  'dead_worker',
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

/** What one pass of the health check found and did, with the incident counts after it. */
export interface HealthSweep {
  /** The journal's clock when it ran. */
  at: number;
  findings: HealthFinding[];
  /** Set when the incident rate (or the config) stopped automatic recovery. */
  recoveryPaused: string | null;
  /** Set when another process held the sweep: this pass looked at nothing and changed nothing. */
  skipped: string | null;
  activeIncidents: number;
  /** Unresolved zombie or hanging-attempt incidents: serious until resolved, not only in the check that found them. */
  seriousIncidents: number;
  recentIncidents: number;
}
