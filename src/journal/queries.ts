import type { Journal } from './journal.js';
import type {
  ActionRow,
  AttemptRow,
  CapabilitySlaRow,
  EffectRow,
  IncidentRow,
  PlanRevisionRow,
  PlanRow,
  RunRow,
  StepRow,
  TransitionRow,
} from './rows.js';

export interface IncidentFilter {
  stepId?: string;
  planId?: string;
  unresolved?: boolean;
  limit?: number;
}

/** Incidents newest first; a step filter matches the id or its prefix (as `git` matches hashes). */
export function listIncidents(
  journal: Journal,
  filter: IncidentFilter = {},
): { total: number; incidents: IncidentRow[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.stepId) {
    where.push("step_id LIKE ? ESCAPE '\\'");
    params.push(`${filter.stepId.replace(/[%_\\]/g, (c) => `\\${c}`)}%`);
  }
  if (filter.planId) {
    where.push('plan_id = ?');
    params.push(filter.planId);
  }
  if (filter.unresolved) where.push('resolved_at IS NULL');
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const total = (journal.db.prepare(`SELECT COUNT(*) AS n FROM incidents ${clause}`).get(...params) as { n: number }).n;
  const incidents = journal.db
    .prepare(`SELECT * FROM incidents ${clause} ORDER BY id DESC LIMIT ?`)
    .all(...params, filter.limit ?? 100) as IncidentRow[];
  return { total, incidents };
}

/** An incident as `--json` and the API show it: details parsed, names as stored. */
export function incidentJson(row: IncidentRow): Omit<IncidentRow, 'details'> & { details: unknown } {
  return { ...row, details: row.details ? JSON.parse(row.details) : null };
}

/** Deletes resolved incidents detected before `before`; unresolved ones stay whatever their age. */
export function clearResolvedIncidents(journal: Journal, before: number): number {
  return journal.sql('DELETE FROM incidents WHERE resolved_at IS NOT NULL AND detected_at < ?').run(before).changes;
}

export interface RunSummary extends RunRow {
  runner_pid: number | null;
  runner_host: string | null;
  runner_status: string | null;
  plan_status: string;
  steps_total: number;
  /** The plan's own steps this run brought to success. */
  steps_succeeded: number;
}

export function listRuns(journal: Journal, limit = 20): RunSummary[] {
  return journal
    .sql(
      `SELECT r.*, rn.pid AS runner_pid, rn.host AS runner_host, rn.status AS runner_status, p.status AS plan_status,
         (SELECT COUNT(*) FROM steps s WHERE s.plan_id = r.plan_id AND s.parent_step_id IS NULL) AS steps_total,
         (SELECT COUNT(DISTINCT t.step_id) FROM step_transitions t JOIN steps s ON s.plan_id = t.plan_id AND s.step_id = t.step_id
            WHERE t.run_id = r.id AND t.to_status = 'succeeded' AND s.parent_step_id IS NULL) AS steps_succeeded
       FROM runs r JOIN plans p ON p.plan_id = r.plan_id LEFT JOIN runners rn ON rn.id = r.runner_id
       ORDER BY r.id DESC LIMIT ?`,
    )
    .all(limit) as RunSummary[];
}

export interface StepProvenance {
  step: StepRow;
  transitions: TransitionRow[];
  attempts: (AttemptRow & { actions: ActionRow[] })[];
  effects: EffectRow[];
  incidents: IncidentRow[];
}

/** The chain intent → plan → step → capability@version → action trace → effects, step by step. */
export interface PlanProvenance {
  plan: PlanRow;
  intent: { id: string; source: string | null; goal: string | null } | null;
  runs: RunRow[];
  /** Replacement steps planners sent on escalation; the adopted ones are the plan's line from there on. */
  revisions: PlanRevisionRow[];
  steps: StepProvenance[];
}

/** A plan's whole record; `page` takes only a window of its steps (by seq), and `stepsTotal` counts them all. */
export function planProvenance(
  journal: Journal,
  planId: string,
  page?: { offset: number; limit: number },
): (PlanProvenance & { stepsTotal: number }) | null {
  const plan = journal.sql('SELECT * FROM plans WHERE plan_id = ?').get(planId) as PlanRow | undefined;
  if (!plan) return null;
  const intent = plan.intent_id
    ? ((journal.sql('SELECT id, source, goal FROM intents WHERE id = ?').get(plan.intent_id) as
        PlanProvenance['intent'] | undefined) ?? null)
    : null;
  const runs = journal.sql('SELECT * FROM runs WHERE plan_id = ? ORDER BY id').all(planId) as RunRow[];
  const stepRows = page
    ? (journal
        .sql('SELECT * FROM steps WHERE plan_id = ? ORDER BY seq LIMIT ? OFFSET ?')
        .all(planId, page.limit, page.offset) as StepRow[])
    : (journal.sql('SELECT * FROM steps WHERE plan_id = ? ORDER BY seq').all(planId) as StepRow[]);
  const stepsTotal = (journal.sql('SELECT COUNT(*) AS n FROM steps WHERE plan_id = ?').get(planId) as { n: number }).n;
  const steps = stepRows.map((step) => ({
    step,
    transitions: journal
      .sql('SELECT * FROM step_transitions WHERE plan_id = ? AND step_id = ? ORDER BY id')
      .all(planId, step.step_id) as TransitionRow[],
    attempts: (
      journal
        .sql('SELECT * FROM attempts WHERE plan_id = ? AND step_id = ? ORDER BY id')
        .all(planId, step.step_id) as AttemptRow[]
    ).map((attempt) => ({
      ...attempt,
      actions: journal.sql('SELECT * FROM actions WHERE attempt_id = ? ORDER BY id').all(attempt.id) as ActionRow[],
    })),
    effects: journal
      .sql('SELECT * FROM effects WHERE plan_id = ? AND step_id = ? ORDER BY id')
      .all(planId, step.step_id) as EffectRow[],
    incidents: journal
      .sql('SELECT * FROM incidents WHERE plan_id = ? AND step_id = ? ORDER BY id')
      .all(planId, step.step_id) as IncidentRow[],
  }));
  const revisions = journal
    .sql('SELECT * FROM plan_revisions WHERE plan_id = ? ORDER BY id')
    .all(planId) as PlanRevisionRow[];
  return { plan, intent, runs, revisions, steps, stepsTotal };
}

/** One tree step's node state changes, as journaled: [nodePath, state] pairs in the order they happened. */
export interface NodeStatesRow {
  id: number;
  planId: string;
  stepId: string;
  attemptId: number | null;
  tree: string;
  at: number;
  changes: [string, string][];
  /** The last executor event journaled before these changes (GET /api/runs/<planId>/events). */
  eventId: number | null;
  /** Where the bot stood, as the world held it then. */
  position: { x: number; y: number; z: number } | null;
}

/**
 * A plan's node state changes after row `after`, oldest first, at most `limit`: what a replay steps through.
 * Null when the journal holds no such plan.
 */
export function nodeStateHistory(
  journal: Journal,
  planId: string,
  page: { after: number; limit: number },
): { rows: NodeStatesRow[]; more: boolean } | null {
  if (!journal.sql('SELECT 1 FROM plans WHERE plan_id = ?').get(planId)) return null;
  const raw = journal
    .sql('SELECT * FROM node_states WHERE plan_id = ? AND id > ? ORDER BY id LIMIT ?')
    .all(planId, page.after, page.limit + 1) as {
    id: number;
    plan_id: string;
    step_id: string;
    attempt_id: number | null;
    tree: string;
    at: number;
    changes: string;
    event_id: number | null;
    x: number | null;
    y: number | null;
    z: number | null;
  }[];
  const rows = raw.slice(0, page.limit).map((r) => ({
    id: r.id,
    planId: r.plan_id,
    stepId: r.step_id,
    attemptId: r.attempt_id,
    tree: r.tree,
    at: r.at,
    changes: JSON.parse(r.changes) as [string, string][],
    eventId: r.event_id,
    position: r.x === null || r.y === null || r.z === null ? null : { x: r.x, y: r.y, z: r.z },
  }));
  return { rows, more: raw.length > page.limit };
}

/**
 * A plan's journaled executor events after row `after`, oldest first, at most `limit`; null when there is no such plan.
 */
export function eventHistory(
  journal: Journal,
  planId: string,
  page: { after: number; limit: number },
): { rows: { id: number; type: string; at: number; event: unknown }[]; more: boolean } | null {
  if (!journal.sql('SELECT 1 FROM plans WHERE plan_id = ?').get(planId)) return null;
  const raw = journal
    .sql('SELECT id, type, at, body FROM events WHERE plan_id = ? AND id > ? ORDER BY id LIMIT ?')
    .all(planId, page.after, page.limit + 1) as { id: number; type: string; at: number; body: string }[];
  return {
    rows: raw
      .slice(0, page.limit)
      .map((r) => ({ id: r.id, type: r.type, at: r.at, event: JSON.parse(r.body) as unknown })),
    more: raw.length > page.limit,
  };
}

export interface MeasuredSla {
  capability: string;
  runs: number;
  successes: number;
  successRate: number;
  meanTtfaMs: number | null;
  meanDurationMs: number | null;
  lastFailureCode: string | null;
}

/** Per-capability SLA measured over every journaled run. */
export function measuredSla(journal: Journal): MeasuredSla[] {
  return (journal.sql('SELECT * FROM capability_sla ORDER BY capability').all() as CapabilitySlaRow[]).map((row) => ({
    capability: row.capability,
    runs: row.runs,
    successes: row.successes,
    successRate: row.runs ? row.successes / row.runs : 0,
    meanTtfaMs: row.ttfa_count ? row.ttfa_sum / row.ttfa_count : null,
    meanDurationMs: row.runs ? row.duration_sum / row.runs : null,
    lastFailureCode: row.last_failure_code,
  }));
}
