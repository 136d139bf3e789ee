import type { Journal } from './journal.js';
import type { IncidentRow } from './rows.js';
import type { IncidentFilter, MeasuredSla, NodeStatesRow, PlanProvenance, RunSummary } from './views.js';

export type {
  EventFeedPage,
  FeedEvent,
  IncidentFilter,
  MeasuredSla,
  NodeStatesRow,
  PlanProvenance,
  RunSummary,
  StepProvenance,
} from './views.js';

// The journal's reads as the commands and the API call them; each is one method of the Journal.

/** Incidents newest first; a step filter matches the id or its prefix (as `git` matches hashes). */
export function listIncidents(
  journal: Journal,
  filter: IncidentFilter = {},
): Promise<{ total: number; incidents: IncidentRow[] }> {
  return journal.listIncidents(filter);
}

/** An incident as `--json` and the API show it: details parsed, names as stored. */
export function incidentJson(row: IncidentRow): Omit<IncidentRow, 'details'> & { details: unknown } {
  return { ...row, details: row.details ? JSON.parse(row.details) : null };
}

/** Deletes resolved incidents detected more than `olderThanMs` ago; unresolved ones stay whatever their age. */
export function clearResolvedIncidents(journal: Journal, olderThanMs: number): Promise<number> {
  return journal.clearResolvedIncidents(olderThanMs);
}

export function listRuns(journal: Journal, limit = 20): Promise<RunSummary[]> {
  return journal.listRuns(limit);
}

/**
 * The chain intent → plan → step → capability@version → action trace → effects; `page` takes a window of steps.
 */
export function planProvenance(
  journal: Journal,
  planId: string,
  page?: { offset: number; limit: number },
): Promise<(PlanProvenance & { stepsTotal: number }) | null> {
  return journal.planProvenance(planId, page);
}

/** A plan's node state changes after row `after`, oldest first, at most `limit`; null when there is no such plan. */
export function nodeStateHistory(
  journal: Journal,
  planId: string,
  page: { after: number; limit: number },
): Promise<{ rows: NodeStatesRow[]; more: boolean } | null> {
  return journal.nodeStateHistory(planId, page);
}

/**
 * A plan's journaled executor events after row `after`, oldest first, at most `limit`; null when there is no such plan.
 */
export function eventHistory(
  journal: Journal,
  planId: string,
  page: { after: number; limit: number },
): Promise<{ rows: { id: number; type: string; at: number; event: unknown }[]; more: boolean } | null> {
  return journal.eventHistory(planId, page);
}

/** Per-capability SLA measured over every journaled run. */
export function measuredSla(journal: Journal): Promise<MeasuredSla[]> {
  return journal.measuredSla();
}
