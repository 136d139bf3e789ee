import { runHealthCheck, type HealthCheckOptions, type HealthReport } from '../journal/health-check.js';
import type { Journal } from '../journal/journal.js';
import {
  eventHistory,
  listIncidents,
  listRuns,
  measuredSla,
  nodeStateHistory,
  planProvenance,
  type IncidentFilter,
  type MeasuredSla,
  type NodeStatesRow,
  type PlanProvenance,
  type RunSummary,
} from '../journal/queries.js';
import type { IncidentRow } from '../journal/rows.js';
import type { PlanControlAction, PlanControlAnswer } from '../journal/sql/plan-control.js';
import type { PromotionRow } from '../journal/sql/version-runs.js';
import type { VersionRun } from '../registry/canary-sla.js';

type Page<Row> = { rows: Row[]; more: boolean } | null;

/**
 * The journal as operations read it (and, for a recovering health check, write it). Every answer is a promise:
 * the journal is async on both its engines (SQLite answers on call, PostgreSQL over the network).
 */
export interface OperationsJournal {
  healthCheck(options: HealthCheckOptions): Promise<HealthReport>;
  incidents(filter: IncidentFilter): Promise<{ total: number; incidents: IncidentRow[] }>;
  runs(limit: number): Promise<RunSummary[]>;
  provenance(
    planId: string,
    page: { offset: number; limit: number },
  ): Promise<(PlanProvenance & { stepsTotal: number }) | null>;
  nodeStates(planId: string, page: { after: number; limit: number }): Promise<Page<NodeStatesRow>>;
  events(
    planId: string,
    page: { after: number; limit: number },
  ): Promise<Page<{ id: number; type: string; at: number; event: unknown }>>;
  measuredSla(): Promise<MeasuredSla[]>;
  /** The runs kept of versions of verbs with a canary (real and shadow), and the canaries promoted. */
  versionRuns(): Promise<VersionRun[]>;
  promotions(): Promise<PromotionRow[]>;
  /** Where a plan stands, and the fleet bot it was queued for (null for a plan a process ran directly). */
  planStatus(planId: string): Promise<{ status: string; bot: string | null } | null>;
  /** An operator's pause, resume or cancel of a fleet plan, for the bot's holder in another process to apply. */
  controlPlan(planId: string, action: PlanControlAction, reason: string): Promise<PlanControlAnswer>;
}

/** This process's journal (src/journal) behind the operations' port. */
export function journalPort(journal: Journal): OperationsJournal {
  return {
    healthCheck: (options) => runHealthCheck(journal, options),
    incidents: (filter) => listIncidents(journal, filter),
    runs: (limit) => listRuns(journal, limit),
    provenance: (planId, page) => planProvenance(journal, planId, page),
    nodeStates: (planId, page) => nodeStateHistory(journal, planId, page),
    events: (planId, page) => eventHistory(journal, planId, page),
    measuredSla: () => measuredSla(journal),
    versionRuns: () => journal.versionRuns(),
    promotions: () => journal.promotions(),
    planStatus: async (planId) => {
      const plan = await journal.plan(planId);
      return plan ? { status: plan.status, bot: plan.bot } : null;
    },
    controlPlan: (planId, action, reason) => journal.requestPlanControl(planId, action, reason),
  };
}
