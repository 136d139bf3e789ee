import type { IncomingMessage } from 'node:http';
import type { HealthReport } from '../journal/health-check.js';
import type { Operations } from '../operations/operations.js';
import { requiredBody } from './body.js';
import { heldEscalations, type HeldEscalations } from './escalations.js';
import { HttpError } from './http-error.js';
import { treeShape } from './tree-shape.js';
import type { TreeCatalog } from '../runtime/tree-catalog.js';

/** What the routes adapt: the operations, and what HTTP adds to them (the journal's path, the token, the body limit, the 3D views). */
export interface ApiContext {
  ops: Operations;
  journalPath: string;
  token?: string;
  bodyLimit: number;
  /** Where each bot's 3D view is served, by bot name (real bots only). */
  viewers: Map<string, string>;
  /** The failures held for the clients to answer (serve --escalate-to-client). */
  escalations?: HeldEscalations;
}

export interface Reply {
  status: number;
  body: unknown;
  contentType?: string;
  headers?: Record<string, string>;
}

const ok = (body: Record<string, unknown>, status = 200): Reply => ({ status, body: { success: true, ...body } });

/** A query parameter as a number for the operation to check; one that is no number at all is refused here (400). */
function numberParam(query: URLSearchParams, name: string): number | undefined {
  const value = query.get(name);
  if (value === null) return undefined;
  const n = Number(value);
  if (value.trim() === '' || Number.isNaN(n))
    throw new HttpError(400, `${name} must be a whole number, got "${value}"`);
  return n;
}

function booleanParam(query: URLSearchParams, name: string): boolean {
  const value = query.get(name);
  if (value === null) return false;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new HttpError(400, `${name} must be true or false, got "${value}"`);
}

const botParam = (query: URLSearchParams) => query.get('bot') ?? undefined;

/** The journal's health as GET /api/health and POST /api/health/recover answer it. */
export function healthReply(ctx: ApiContext, report: HealthReport, recovered: boolean): Reply {
  return ok({
    journal: ctx.journalPath,
    recovered,
    health: {
      status: report.status,
      lastCheck: new Date(report.at).toISOString(),
      checks: report.checks,
      findings: report.findings,
      recoveryPaused: report.recoveryPaused,
      skipped: report.skipped,
      activeIncidents: report.activeIncidents,
      recentIncidents: report.recentIncidents,
    },
  });
}

export async function incidents(ctx: ApiContext, query: URLSearchParams): Promise<Reply> {
  const step = query.get('step') ?? query.get('task');
  const plan = query.get('plan');
  const { total, incidents: rows } = await ctx.ops.incidents({
    ...(step ? { stepId: step } : {}),
    ...(plan ? { planId: plan } : {}),
    unresolved: booleanParam(query, 'unresolved'),
    limit: numberParam(query, 'limit'),
  });
  return ok({ journal: ctx.journalPath, total, incidents: rows });
}

/** Capabilities with their SLA as the journal measured it, and as this process measured it for the bot `?bot=` names (default: the first). */
export async function capabilities(ctx: ApiContext, query: URLSearchParams): Promise<Reply> {
  return ok({ capabilities: await ctx.ops.capabilities({ bot: botParam(query) }) });
}

/** Each canary beside its stable version, with its standing by the promotion rule. */
export async function canaries(ctx: ApiContext): Promise<Reply> {
  return ok({ canaries: await ctx.ops.canaries() });
}

const NO_BOT = 'no bot attached: this server was started without a world (serve --world none)';

/** One bot's status: `?bot=<name>`, default the first. */
export async function botStatus(ctx: ApiContext, query: URLSearchParams): Promise<Reply> {
  const status = await ctx.ops.botStatus({ bot: botParam(query) });
  if (!status.attached) return ok({ attached: false, message: NO_BOT });
  const { attached, bot: name, ...sample } = status;
  return ok({ attached, name, ...sample, viewer: ctx.viewers.get(name) ?? null });
}

/** Every bot this server drives, with its state now: what the monitor's fleet view lists. */
export async function botList(ctx: ApiContext): Promise<Reply> {
  const bots = (await ctx.ops.listBots()).map((sample) => ({ ...sample, viewer: ctx.viewers.get(sample.bot) ?? null }));
  return ok({ bots, ...(bots.length === 0 ? { message: NO_BOT } : {}) });
}

export async function runs(ctx: ApiContext, query: URLSearchParams): Promise<Reply> {
  return ok({ runs: await ctx.ops.listRuns({ limit: numberParam(query, 'limit') }) });
}

const runPath = (planId: string) => `/api/runs/${encodeURIComponent(planId)}`;

/** A plan's provenance, its steps a page at a time (`?offset=&limit=`, at most 1000): a plan may hold a million steps. */
export async function provenance(ctx: ApiContext, planId: string, query: URLSearchParams): Promise<Reply> {
  const found = await ctx.ops.provenance(planId, {
    offset: numberParam(query, 'offset'),
    limit: numberParam(query, 'limit'),
  });
  const { offset, limit, stepsTotal, nextOffset } = found.page;
  const next = nextOffset === null ? null : `${runPath(planId)}?offset=${nextOffset}&limit=${limit}`;
  return ok({ provenance: found.provenance, page: { offset, limit, stepsTotal, next } });
}

/** A plan's node state changes, with the last event before each and where the bot stood, paged by the last row id seen. */
export async function nodeStates(ctx: ApiContext, planId: string, query: URLSearchParams): Promise<Reply> {
  const found = await ctx.ops.nodeStates(planId, {
    after: numberParam(query, 'after'),
    limit: numberParam(query, 'limit'),
  });
  return ok({ nodeStates: found.rows, page: historyPage(planId, 'nodes', found.page) });
}

/** A plan's journaled executor events: a replay's event log, paged by the last row id seen. */
export async function planEvents(ctx: ApiContext, planId: string, query: URLSearchParams): Promise<Reply> {
  const found = await ctx.ops.planEvents(planId, {
    after: numberParam(query, 'after'),
    limit: numberParam(query, 'limit'),
  });
  return ok({ events: found.rows, page: historyPage(planId, 'events', found.page) });
}

/** A run's status, steps and failure (`?waitMs=` waits for its end first, as long as the client stays). */
export async function runStatus(
  ctx: ApiContext,
  request: IncomingMessage,
  planId: string,
  query: URLSearchParams,
): Promise<Reply> {
  const waitMs = numberParam(query, 'waitMs');
  const run = await untilGone(request, (gone) => ctx.ops.getRun(planId, { waitMs, signal: gone }));
  return ok({ run });
}

/**
 * A plan's held failure (serve --escalate-to-client), null when none is held; `?waitMs=` waits for one to be held
 * or for the run to end, as long as the client stays.
 */
export async function escalation(
  ctx: ApiContext,
  request: IncomingMessage,
  planId: string,
  query: URLSearchParams,
): Promise<Reply> {
  const held = heldEscalations(ctx.escalations);
  const waitMs = numberParam(query, 'waitMs');
  // Asked first, so an unknown plan is a 404 at once and a bad waitMs a 400 before any wait.
  const before = await ctx.ops.getRun(planId, { waitMs: 0 });
  if (waitMs && !held.pending(planId))
    await untilGone(request, async (gone) => {
      const stop = new AbortController();
      const either = AbortSignal.any([gone, stop.signal]);
      await Promise.race([held.next(planId, either), ctx.ops.getRun(planId, { waitMs, signal: either })]);
      stop.abort();
    });
  const status = waitMs ? (await ctx.ops.getRun(planId)).status : before.status;
  return ok({ planId, status, escalation: held.pending(planId) ?? null });
}

/** A tree's nodes for drawing, by its name. */
export function tree(trees: TreeCatalog | undefined, name: string): Reply {
  const found = trees?.get(name);
  if (!found)
    throw new HttpError(
      404,
      `no tree "${name}"${trees ? '; GET /api/trees lists them' : ': this server has no trees loaded'}`,
    );
  return ok({ tree: treeShape(found) });
}

function historyPage(
  planId: string,
  view: 'nodes' | 'events',
  { after, limit, nextAfter }: { after: number; limit: number; nextAfter: number | null },
) {
  return {
    after,
    limit,
    next: nextAfter === null ? null : `${runPath(planId)}/${view}?after=${nextAfter}&limit=${limit}`,
  };
}

/** Calls `wait` with a signal aborted when the client's connection closes: nobody is left to answer. */
async function untilGone<T>(request: IncomingMessage, wait: (gone: AbortSignal) => Promise<T>): Promise<T> {
  const gone = new AbortController();
  const onClose = () => gone.abort(new Error('the client closed the connection'));
  request.socket.once('close', onClose);
  try {
    return await wait(gone.signal);
  } finally {
    request.socket.off('close', onClose);
  }
}

/**
 * POST /api/cognitive/execute: starts a plan (202), or with `?wait=true` runs it to its result (200). On a fleet
 * gateway it queues the plan for the bot's holder, once per planId (`queued: false` on a retry), and `?wait=true`
 * waits for the run's end in the shared journal.
 */
export async function execute(
  ctx: ApiContext,
  request: IncomingMessage,
  query: URLSearchParams,
  body: unknown,
): Promise<Reply> {
  // Every parameter is checked before anything starts (the router checked their names): a client retrying a 400
  // must never run the plan twice.
  const wait = booleanParam(query, 'wait');
  const bot = botParam(query);
  const input = requiredBody(body);
  if (wait) {
    const outcome = await untilGone(request, (gone) => ctx.ops.run(input, { bot, stopWaiting: gone }));
    const { planId, bot: name } = outcome;
    // With no wait limit given, a run answers at its end; a run still going is accepted, as without ?wait.
    if (outcome.status === 'running')
      return ok({ planId, bot: name, status: 'accepted', run: runPath(planId), events: '/api/events' }, 202);
    // A fleet worker ran it: its end as the shared journal holds it (the executor's result stayed in the worker).
    if (outcome.result === null)
      return {
        status: 200,
        body: { success: outcome.run.status === 'succeeded', planId, bot: name, run: outcome.run },
      };
    return { status: 200, body: { success: outcome.result.ok, planId, bot: name, result: outcome.result } };
  }
  const started = await ctx.ops.start(input, { bot });
  return ok(
    {
      planId: started.planId,
      bot: started.bot,
      status: 'accepted',
      ...(started.queued === undefined ? {} : { queued: started.queued }),
      steps: started.steps,
      run: runPath(started.planId),
      events: '/api/events',
    },
    202,
  );
}
