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
} from '../rows.js';
import type { IncidentFilter, MeasuredSla, NodeStatesRow, PlanProvenance, RunSummary, StepRepair } from '../views.js';
import { placeholders } from './record.js';
import { all, count, get, run, type Param, type Tx } from './tx.js';
import type { EventOf } from '../../executor/events.js';

/** Incidents newest first; a step filter matches the id or its prefix. */
export function* listIncidents(filter: IncidentFilter): Tx<{ total: number; incidents: IncidentRow[] }> {
  const where: string[] = [];
  const params: Param[] = [];
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
  const total = yield* count(`SELECT COUNT(*) AS n FROM incidents ${clause}`, ...params);
  const incidents = yield* all<IncidentRow>(
    `SELECT * FROM incidents ${clause} ORDER BY id DESC LIMIT ?`,
    ...params,
    filter.limit ?? 100,
  );
  return { total, incidents };
}

export function* clearResolvedIncidents(olderThanMs: number): Tx<number> {
  return yield* run(
    'DELETE FROM incidents WHERE resolved_at IS NOT NULL AND detected_at < verbtree_now() - ?',
    olderThanMs,
  );
}

export function* incident(id: number): Tx<IncidentRow | undefined> {
  return yield* get<IncidentRow>('SELECT * FROM incidents WHERE id = ?', id);
}

export function* plan(planId: string): Tx<PlanRow | undefined> {
  return yield* get<PlanRow>('SELECT * FROM plans WHERE plan_id = ?', planId);
}

export function* listRuns(limit: number): Tx<RunSummary[]> {
  return yield* all<RunSummary>(
    `SELECT r.*, rn.pid AS runner_pid, rn.host AS runner_host, rn.status AS runner_status, p.status AS plan_status,
       (SELECT COUNT(*) FROM steps s WHERE s.plan_id = r.plan_id AND s.parent_step_id IS NULL) AS steps_total,
       (SELECT COUNT(DISTINCT t.step_id) FROM step_transitions t JOIN steps s ON s.plan_id = t.plan_id AND s.step_id = t.step_id
          WHERE t.run_id = r.id AND t.to_status = 'succeeded' AND s.parent_step_id IS NULL) AS steps_succeeded,
       (SELECT COUNT(*) FROM steps s WHERE s.plan_id = r.plan_id AND s.parent_step_id IS NULL AND s.status = 'retracted')
         AS steps_retracted
     FROM runs r JOIN plans p ON p.plan_id = r.plan_id LEFT JOIN runners rn ON rn.id = r.runner_id
     ORDER BY r.id DESC LIMIT ?`,
    limit,
  );
}

/** A plan's whole record; `page` takes only a window of its steps (by seq), and `stepsTotal` counts them all. */
export function* planProvenance(
  planId: string,
  page?: { offset: number; limit: number },
): Tx<(PlanProvenance & { stepsTotal: number }) | null> {
  const found = yield* plan(planId);
  if (!found) return null;
  const intent = found.intent_id
    ? ((yield* get<NonNullable<PlanProvenance['intent']>>(
        'SELECT id, source, goal FROM intents WHERE id = ?',
        found.intent_id,
      )) ?? null)
    : null;
  const runs = yield* all<RunRow>('SELECT * FROM runs WHERE plan_id = ? ORDER BY id', planId);
  const stepRows = page
    ? yield* all<StepRow>(
        'SELECT * FROM steps WHERE plan_id = ? ORDER BY seq LIMIT ? OFFSET ?',
        planId,
        page.limit,
        page.offset,
      )
    : yield* all<StepRow>('SELECT * FROM steps WHERE plan_id = ? ORDER BY seq', planId);
  const stepsTotal = yield* count('SELECT COUNT(*) AS n FROM steps WHERE plan_id = ?', planId);
  // One read per table for the whole page, grouped here: a round trip per step would cost a networked database dearly.
  const ids = stepRows.map((s) => s.step_id);
  const ofSteps = function* <T extends { step_id: string }>(table: string): Tx<Map<string, T[]>> {
    const rows =
      ids.length === 0
        ? []
        : yield* all<T>(
            `SELECT * FROM ${table} WHERE plan_id = ? AND step_id IN (${placeholders(ids)}) ORDER BY id`,
            planId,
            ...ids,
          );
    return groupBy(rows, (r) => r.step_id);
  };
  const transitions = yield* ofSteps<TransitionRow>('step_transitions');
  const attempts = yield* ofSteps<AttemptRow>('attempts');
  const actions = yield* ofSteps<ActionRow>('actions');
  const effects = yield* ofSteps<EffectRow>('effects');
  const incidents = yield* ofSteps<IncidentRow & { step_id: string }>('incidents');
  const actionsByAttempt = groupBy([...actions.values()].flat(), (a) => a.attempt_id);
  const { branches, repairs } = yield* repairNotes(planId);
  const steps = stepRows.map((step) => ({
    step,
    transitions: transitions.get(step.step_id) ?? [],
    attempts: (attempts.get(step.step_id) ?? []).map((a) => ({ ...a, actions: actionsByAttempt.get(a.id) ?? [] })),
    effects: effects.get(step.step_id) ?? [],
    incidents: incidents.get(step.step_id) ?? [],
    branches: branches.get(step.step_id) ?? [],
    repairs: repairs.get(step.step_id) ?? [],
  }));
  const revisions = yield* all<PlanRevisionRow>('SELECT * FROM plan_revisions WHERE plan_id = ? ORDER BY id', planId);
  return { plan: found, intent, runs, revisions, steps, stepsTotal };
}

/**
 * What each step of a plan was repaired with, as journaled (`step.repair`: a rung, an unstuck move, a defence), and
 * what branch exploration journaled for it: the branch it ran (with every score), or that none scored.
 */
function* repairNotes(planId: string): Tx<{ branches: Map<string, string[]>; repairs: Map<string, StepRepair[]> }> {
  const rows = yield* all<{ body: string }>(
    "SELECT body FROM events WHERE plan_id = ? AND type IN ('step.repair', 'step.warning') ORDER BY id",
    planId,
  );
  const events = rows.map(({ body }) => JSON.parse(body) as EventOf<'step.repair'> | EventOf<'step.warning'>);
  const notes = events.flatMap((event) => {
    if (event.type === 'step.warning')
      return event.message.startsWith('branch exploration:') ? [{ stepId: event.stepId, note: event.message }] : [];
    const at = event.detail.indexOf('branch exploration of ');
    return event.strategy.startsWith('branch:') && at >= 0
      ? [{ stepId: event.stepId, note: `${event.strategy}; ${event.detail.slice(at)}` }]
      : [];
  });
  const repairs = events.flatMap((event) =>
    event.type === 'step.repair'
      ? [
          {
            stepId: event.stepId,
            repair: {
              at: event.at,
              strategy: event.strategy,
              code: event.code,
              detail: event.detail,
              ...(event.inTree ? { inTree: true as const } : {}),
            },
          },
        ]
      : [],
  );
  return {
    branches: new Map([...groupBy(notes, (n) => n.stepId)].map(([id, list]) => [id, list.map((n) => n.note)])),
    repairs: new Map([...groupBy(repairs, (r) => r.stepId)].map(([id, list]) => [id, list.map((r) => r.repair)])),
  };
}

function groupBy<T, K>(rows: readonly T[], key: (row: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const row of rows) {
    const k = key(row);
    const group = groups.get(k);
    if (group) group.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

export function* planExists(planId: string): Tx<boolean> {
  return (yield* get<{ plan_id: string }>('SELECT plan_id FROM plans WHERE plan_id = ?', planId)) !== undefined;
}

export function* nodeStateHistory(
  planId: string,
  page: { after: number; limit: number },
): Tx<{ rows: NodeStatesRow[]; more: boolean } | null> {
  if (!(yield* planExists(planId))) return null;
  const raw = yield* all<{
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
  }>('SELECT * FROM node_states WHERE plan_id = ? AND id > ? ORDER BY id LIMIT ?', planId, page.after, page.limit + 1);
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
 * A plan's events after row `after`, oldest first. One recorder writes a plan's events, each committed before the
 * next is written, so within a plan ids follow commit order on both engines and a cursor by id skips none.
 */
export function* eventHistory(
  planId: string,
  page: { after: number; limit: number },
): Tx<{ rows: { id: number; type: string; at: number; event: unknown }[]; more: boolean } | null> {
  if (!(yield* planExists(planId))) return null;
  const raw = yield* all<{ id: number; type: string; at: number; body: string }>(
    'SELECT id, type, at, body FROM events WHERE plan_id = ? AND id > ? ORDER BY id LIMIT ?',
    planId,
    page.after,
    page.limit + 1,
  );
  return {
    rows: raw
      .slice(0, page.limit)

      .map((r) => ({ id: r.id, type: r.type, at: r.at, event: JSON.parse(r.body) as unknown })),
    more: raw.length > page.limit,
  };
}

export function* measuredSla(): Tx<MeasuredSla[]> {
  const rows = yield* all<CapabilitySlaRow>('SELECT * FROM capability_sla ORDER BY capability');
  return rows.map((row) => ({
    capability: row.capability,
    runs: row.runs,
    successes: row.successes,
    successRate: row.runs ? row.successes / row.runs : 0,
    meanTtfaMs: row.ttfa_count ? row.ttfa_sum / row.ttfa_count : null,
    meanDurationMs: row.runs ? row.duration_sum / row.runs : null,
    lastFailureCode: row.last_failure_code,
  }));
}
