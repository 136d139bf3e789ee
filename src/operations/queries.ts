import type { Executor } from '../executor/executor.js';
import type { HealthReport } from '../journal/health-check.js';
import type { HealthConfigInput } from '../journal/health-config.js';
import { incidentJson, type MeasuredSla, type NodeStatesRow, type RunSummary } from '../journal/queries.js';
import { canaryStatuses, PromotionRule, type CanaryStatus } from '../registry/canary-sla.js';
import type { CapabilityRegistry, CapabilitySummary } from '../registry/registry.js';
import { isQueuedBot, type BotAccess, type BotSample, type FleetBotSample } from './bot-access.js';
import { noJournaledPlan, wholeNumber } from './errors.js';
import type { OperationsJournal } from './journal-port.js';

export interface QueryContext {
  journal: OperationsJournal;
  registry: CapabilityRegistry;
  bots: BotAccess;
  health?: HealthConfigInput;
  /** This process's runner id, so its own health check never judges itself. */
  selfRunnerId?: string;
  /** The rule that marks a canary ready (the project config's canaries.rule); default PromotionRule's defaults. */
  canaryRule?: PromotionRule;
}

/** Page sizes: at most 1000 rows a call, so no answer holds a whole huge plan. */
const MAX_PAGE = 1000;
const EVERY = Number.MAX_SAFE_INTEGER;

/** The journal's health. `recover: false` reports what a check finds and writes nothing (rolled back); `true` acts on it. */
export async function health(ctx: QueryContext, options: { recover: boolean }): Promise<HealthReport> {
  return ctx.journal.healthCheck({
    ...(ctx.health ? { config: ctx.health } : {}),
    ...(ctx.selfRunnerId ? { selfRunnerId: ctx.selfRunnerId } : {}),
    dryRun: !options.recover,
  });
}

export interface IncidentsQuery {
  /** A step id, or its prefix. */
  stepId?: string;
  planId?: string;
  unresolved?: boolean;
  limit?: number;
}

/** Incidents newest first, and how many match in all. */
export async function incidents(
  ctx: QueryContext,
  query: IncidentsQuery = {},
): Promise<{ total: number; incidents: ReturnType<typeof incidentJson>[] }> {
  const limit = wholeNumber(query.limit, 'limit', { min: 1, max: MAX_PAGE, fallback: 100 });
  const { total, incidents: rows } = await ctx.journal.incidents({
    ...(query.stepId ? { stepId: query.stepId } : {}),
    ...(query.planId ? { planId: query.planId } : {}),
    unresolved: query.unresolved === true,
    limit,
  });
  return { total, incidents: rows.map(incidentJson) };
}

/** The journal's runs, newest first. */
export async function listRuns(ctx: QueryContext, query: { limit?: number } = {}): Promise<RunSummary[]> {
  return ctx.journal.runs(wholeNumber(query.limit, 'limit', { min: 1, max: MAX_PAGE, fallback: 20 }));
}

/** A plan's provenance (intent → plan → steps → attempts → actions → effects), its steps a page at a time. */
export async function provenance(ctx: QueryContext, planId: string, page: { offset?: number; limit?: number } = {}) {
  const offset = wholeNumber(page.offset, 'offset', { min: 0, max: EVERY, fallback: 0 });
  const limit = wholeNumber(page.limit, 'limit', { min: 1, max: MAX_PAGE, fallback: 200 });
  const found = await ctx.journal.provenance(planId, { offset, limit });
  if (!found) throw noJournaledPlan(planId);
  const { stepsTotal, ...record } = found;
  return {
    provenance: record,
    page: { offset, limit, stepsTotal, nextOffset: offset + limit < stepsTotal ? offset + limit : null },
  };
}

export interface HistoryPage<Row> {
  rows: Row[];
  /** Rows come after the row id `after`; `nextAfter` is the id to ask after for more, null at the end. */
  page: { after: number; limit: number; nextAfter: number | null };
}

async function history<Row extends { id: number }>(
  planId: string,
  page: { after?: number; limit?: number },
  read: (planId: string, page: { after: number; limit: number }) => Promise<{ rows: Row[]; more: boolean } | null>,
): Promise<HistoryPage<Row>> {
  const after = wholeNumber(page.after, 'after', { min: 0, max: EVERY, fallback: 0 });
  const limit = wholeNumber(page.limit, 'limit', { min: 1, max: MAX_PAGE, fallback: 500 });
  const found = await read(planId, { after, limit });
  if (!found) throw noJournaledPlan(planId);
  const last = found.rows.at(-1)?.id ?? after;
  return { rows: found.rows, page: { after, limit, nextAfter: found.more ? last : null } };
}

/** A plan's node state changes, oldest first, with the last event before each and where the bot stood. */
export function nodeStates(
  ctx: QueryContext,
  planId: string,
  page: { after?: number; limit?: number } = {},
): Promise<HistoryPage<NodeStatesRow>> {
  return history(planId, page, (id, p) => ctx.journal.nodeStates(id, p));
}

/** A plan's journaled executor events, oldest first: a replay's event log. */
export function planEvents(
  ctx: QueryContext,
  planId: string,
  page: { after?: number; limit?: number } = {},
): Promise<HistoryPage<{ id: number; type: string; at: number; event: unknown }>> {
  return history(planId, page, (id, p) => ctx.journal.events(id, p));
}

type ProcessSla = ReturnType<Executor['metrics']>['sla'][number];

export interface CapabilityView extends CapabilitySummary {
  /** As the journal measured it over every run, and as this process measured it for the bot asked about. */
  sla: { journal: MeasuredSla | null; thisProcess: ProcessSla | null };
}

/** Every capability with its SLA: the journal's, and this process's for `bot` (default the first). */
export async function capabilities(ctx: QueryContext, query: { bot?: string } = {}): Promise<CapabilityView[]> {
  const measured = new Map((await ctx.journal.measuredSla()).map((m) => [m.capability, m]));
  const bot = await ctx.bots.get(query.bot);
  // A fleet bot's executor runs in its worker: only the journal measured it here.
  const sla = bot && !isQueuedBot(bot) ? bot.executor.metrics().sla : [];
  const live = new Map(sla.map((s) => [s.capability, s]));
  return ctx.registry.summaries().map((summary) => ({
    ...summary,
    sla: { journal: measured.get(summary.name) ?? null, thisProcess: live.get(summary.name) ?? null },
  }));
}

/**
 * Every canary's standing by the rule over the journal's runs: in shadow, ready, or promoted (in this process's
 * registry, or in the journal by `verbtree registry promote`).
 */
export async function canaries(ctx: QueryContext): Promise<CanaryStatus[]> {
  const promoted = new Set((await ctx.journal.promotions()).map((p) => `${p.verb}@${p.version}`));
  const rule = ctx.canaryRule ?? PromotionRule.parse({});
  return canaryStatuses(ctx.registry, await ctx.journal.versionRuns(), rule).map((status) =>
    status.state !== 'promoted' && promoted.has(`${status.verb}@${status.version}`)
      ? { ...status, state: 'promoted', promoted: true, reason: 'promoted in the journal (verbtree registry promote)' }
      : status,
  );
}

/** Every bot with its state now: this process's own, or (on a fleet gateway) every bot of the fleet. */
export async function listBots(ctx: QueryContext): Promise<(BotSample | FleetBotSample)[]> {
  return ctx.bots.samples();
}

/** One bot's state now (`bot`, default the first); `attached: false` when this process has none. */
export async function botStatus(
  ctx: QueryContext,
  query: { bot?: string } = {},
): Promise<({ attached: true } & (BotSample | FleetBotSample)) | { attached: false }> {
  const bot = await ctx.bots.get(query.bot);
  if (!bot) return { attached: false };
  return { attached: true, ...(await ctx.bots.sample(bot)) };
}
