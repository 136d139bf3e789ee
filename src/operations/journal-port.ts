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

/** A value now, or later: the SQLite journal answers at once, a journal over the network (PostgreSQL) later. */
export type Awaitable<T> = T | Promise<T>;

type Page<Row> = { rows: Row[]; more: boolean } | null;

/**
 * The journal as operations read it (and, for a recovering health check, write it). Operations await every
 * call, so a journal that answers now and one that answers later both fit.
 */
export interface OperationsJournal {
  healthCheck(options: HealthCheckOptions): Awaitable<HealthReport>;
  incidents(filter: IncidentFilter): Awaitable<{ total: number; incidents: IncidentRow[] }>;
  runs(limit: number): Awaitable<RunSummary[]>;
  provenance(
    planId: string,
    page: { offset: number; limit: number },
  ): Awaitable<(PlanProvenance & { stepsTotal: number }) | null>;
  nodeStates(planId: string, page: { after: number; limit: number }): Awaitable<Page<NodeStatesRow>>;
  events(
    planId: string,
    page: { after: number; limit: number },
  ): Awaitable<Page<{ id: number; type: string; at: number; event: unknown }>>;
  measuredSla(): Awaitable<MeasuredSla[]>;
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
  };
}
