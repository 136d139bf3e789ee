import type { IncomingMessage } from 'node:http';
import type { ExecutionRun } from '../executor/executor.js';
import { runHealthCheck } from '../journal/health-check.js';
import type { HealthConfigInput } from '../journal/health-config.js';
import type { Journal } from '../journal/journal.js';
import { PlanConflictError } from '../journal/journaled-executor.js';
import {
  eventHistory,
  incidentJson,
  listIncidents,
  listRuns,
  measuredSla,
  nodeStateHistory,
  planProvenance,
} from '../journal/queries.js';
import type { CapabilityRegistry } from '../registry/registry.js';
import { validatePlan } from '../validate/validate-plan.js';
import { requireBearer } from './auth.js';
import { readJsonBody } from './body.js';
import { HttpError } from './http-error.js';
import type { Bots } from './bots.js';

/**
 * What the API serves: always a journal and a registry; the bots (each an executor and its world) when any are
 * attached.
 */
export interface ApiContext {
  journal: Journal;
  journalPath: string;
  registry: CapabilityRegistry;
  token?: string;
  bodyLimit: number;
  health?: HealthConfigInput;
  /** This server's runner id, so its own health check never judges itself. */
  selfRunnerId?: string;
  bots: Bots;
  /** Where each bot's 3D view is served, by bot name (real bots only). */
  viewers: Map<string, string>;
}

export interface Reply {
  status: number;
  body: unknown;
  contentType?: string;
  headers?: Record<string, string>;
}

const ok = (body: Record<string, unknown>, status = 200): Reply => ({ status, body: { success: true, ...body } });

function positiveLimit(value: string | null, fallback: number): number {
  if (value === null) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0 || n > 1000)
    throw new HttpError(400, `limit must be a whole number from 1 to 1000, got "${value}"`);
  return n;
}

function booleanParam(value: string | null, name: string): boolean {
  if (value === null) return false;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new HttpError(400, `${name} must be true or false, got "${value}"`);
}

/**
 * The journal's health. A read (GET) reports what a check finds and changes nothing; `recover` (a POST behind the
 * token) acts on it.
 */
export function health(ctx: ApiContext, recover: boolean): Reply {
  const report = runHealthCheck(ctx.journal, {
    ...(ctx.health ? { config: ctx.health } : {}),
    ...(ctx.selfRunnerId ? { selfRunnerId: ctx.selfRunnerId } : {}),
    dryRun: !recover,
  });
  return ok({
    journal: ctx.journalPath,
    recovered: recover,
    health: {
      status: report.status,
      lastCheck: new Date(report.at).toISOString(),
      checks: report.checks,
      findings: report.findings,
      recoveryPaused: report.recoveryPaused,
      activeIncidents: report.activeIncidents,
      recentIncidents: report.recentIncidents,
    },
  });
}

export function incidents(ctx: ApiContext, query: URLSearchParams): Reply {
  const step = query.get('step') ?? query.get('task');
  const plan = query.get('plan');
  const { total, incidents: rows } = listIncidents(ctx.journal, {
    ...(step ? { stepId: step } : {}),
    ...(plan ? { planId: plan } : {}),
    unresolved: booleanParam(query.get('unresolved'), 'unresolved'),
    limit: positiveLimit(query.get('limit'), 100),
  });
  return ok({ journal: ctx.journalPath, total, incidents: rows.map(incidentJson) });
}

/**
 * Capabilities with their SLA as the journal measured it, and as this process measured it for the bot `?bot=` names
 * (default: the first).
 */
export function capabilities(ctx: ApiContext, query: URLSearchParams): Reply {
  onlyParams(query, ['bot']);
  const measured = new Map(measuredSla(ctx.journal).map((m) => [m.capability, m]));
  const live = new Map((ctx.bots.pick(query)?.executor.metrics().sla ?? []).map((s) => [s.capability, s]));
  return ok({
    capabilities: ctx.registry.summaries().map((summary) => ({
      ...summary,
      sla: { journal: measured.get(summary.name) ?? null, thisProcess: live.get(summary.name) ?? null },
    })),
  });
}

const NO_BOT = 'no bot attached: this server was started without a world (serve --world none)';

/** One bot's status: `?bot=<name>`, default the first. */
export function botStatus(ctx: ApiContext, query: URLSearchParams): Reply {
  onlyParams(query, ['bot']);
  const bot = ctx.bots.pick(query);
  if (!bot) return ok({ attached: false, message: NO_BOT });
  const { bot: name, ...sample } = ctx.bots.sample(bot);
  return ok({ attached: true, name, ...sample, viewer: ctx.viewers.get(name) ?? null });
}

/** Every bot this server drives, with its state now: what the monitor's fleet view lists. */
export function botList(ctx: ApiContext): Reply {
  const bots = ctx.bots.samples().map((sample) => ({ ...sample, viewer: ctx.viewers.get(sample.bot) ?? null }));
  return ok({ bots, ...(bots.length === 0 ? { message: NO_BOT } : {}) });
}

export function runs(ctx: ApiContext, query: URLSearchParams): Reply {
  return ok({ runs: listRuns(ctx.journal, positiveLimit(query.get('limit'), 20)) });
}

/**
 * A plan's provenance, its steps a page at a time (`?offset=&limit=`, at most 1000): a plan may hold a million steps.
 */
export function provenance(ctx: ApiContext, planId: string, query: URLSearchParams): Reply {
  onlyParams(query, ['offset', 'limit']);
  const offset = wholeParam(query.get('offset'), 'offset', 0, Number.MAX_SAFE_INTEGER, 0);
  const limit = positiveLimit(query.get('limit'), 200);
  const found = planProvenance(ctx.journal, planId, { offset, limit });
  if (!found) throw new HttpError(404, `no plan "${planId}" in the journal; GET /api/runs lists them`);
  const { stepsTotal, ...provenance } = found;
  const next =
    offset + limit < stepsTotal
      ? `/api/runs/${encodeURIComponent(planId)}?offset=${offset + limit}&limit=${limit}`
      : null;
  return ok({ provenance, page: { offset, limit, stepsTotal, next } });
}

type History = (
  journal: ApiContext['journal'],
  planId: string,
  page: { after: number; limit: number },
) => { rows: { id: number }[]; more: boolean } | null;

/** A plan's journaled rows oldest first, paged by the last row id seen (`after`): what a replay steps through. */
function history(
  ctx: ApiContext,
  planId: string,
  query: URLSearchParams,
  view: 'nodes' | 'events',
  read: History,
): Reply {
  onlyParams(query, ['after', 'limit']);
  const after = wholeParam(query.get('after'), 'after', 0, Number.MAX_SAFE_INTEGER, 0);
  const limit = positiveLimit(query.get('limit'), 500);
  const found = read(ctx.journal, planId, { after, limit });
  if (!found) throw new HttpError(404, `no plan "${planId}" in the journal; GET /api/runs lists them`);
  const last = found.rows.at(-1)?.id ?? after;
  const next = found.more ? `/api/runs/${encodeURIComponent(planId)}/${view}?after=${last}&limit=${limit}` : null;
  return ok({ [view === 'nodes' ? 'nodeStates' : 'events']: found.rows, page: { after, limit, next } });
}

/** A plan's node state changes, with the last event before each and where the bot stood. */
export const nodeStates = (ctx: ApiContext, planId: string, query: URLSearchParams): Reply =>
  history(ctx, planId, query, 'nodes', nodeStateHistory);

/** A plan's journaled executor events: a replay's event log. */
export const planEvents = (ctx: ApiContext, planId: string, query: URLSearchParams): Reply =>
  history(ctx, planId, query, 'events', eventHistory);

/** Refuses (400) a query parameter the route does not take, so a typo is not silently ignored. */
function onlyParams(query: URLSearchParams, allowed: readonly string[]): void {
  for (const name of query.keys()) {
    if (!allowed.includes(name))
      throw new HttpError(
        400,
        `unknown query parameter "${name}"; this route takes ${allowed.length > 0 ? allowed.join(', ') : 'none'}`,
      );
  }
}

function wholeParam(value: string | null, name: string, min: number, max: number, fallback: number): number {
  if (value === null) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new HttpError(400, `${name} must be a whole number from ${min}, got "${value}"`);
  return n;
}

export async function execute(
  ctx: ApiContext,
  request: IncomingMessage,
  query: URLSearchParams,
  live?: { add(planId: string, run: ExecutionRun): void },
): Promise<Reply> {
  requireBearer(request, ctx.token);
  // Every parameter is checked before anything starts: a client retrying a 400 must never run the plan twice.
  onlyParams(query, ['wait', 'bot']);
  const wait = booleanParam(query.get('wait'), 'wait');
  const bot = ctx.bots.pick(query);
  const input = await readJsonBody(request, ctx.bodyLimit);
  if (!bot)
    throw new HttpError(503, 'no bot attached: start the server with a world (serve --world sim) to execute plans');
  if (input && typeof input === 'object' && 'goal' in input)
    throw new HttpError(
      422,
      'this server has no planner: POST a plan ({ "planId", "intentId", "steps" }), not an intent',
    );
  const report = validatePlan(input, ctx.registry);
  if (!report.ok)
    throw new HttpError(422, `invalid plan: ${report.issues.map((i) => `${i.where}: ${i.message}`).join('; ')}`, {
      issues: report.issues,
    });
  let run: ExecutionRun;
  try {
    run = bot.run(input);
  } catch (error) {
    if (error instanceof PlanConflictError) throw new HttpError(409, error.message);
    throw error;
  }
  live?.add(report.plan.planId, run);
  if (wait) {
    const result = await run.result;
    return { status: 200, body: { success: result.ok, planId: report.plan.planId, bot: bot.id, result } };
  }
  void run.result.catch(() => undefined);
  return ok(
    { planId: report.plan.planId, bot: bot.id, status: 'accepted', steps: report.steps.length, events: '/api/events' },
    202,
  );
}
