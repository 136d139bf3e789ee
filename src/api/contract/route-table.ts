import { z } from 'zod';
import * as body from './schemas.js';

export type Method = 'GET' | 'POST';

/** An answer a route may give: its status, what it means, and its body's schema (JSON unless `contentType`). */
export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface RouteSpec {
  method: Method;
  /** An OpenAPI path template: each `{name}` is one segment, percent-decoded, except a `rest` route's last. */
  path: string;
  summary: string;
  tag: 'runs' | 'control' | 'bots' | 'journal' | 'server' | 'monitor';
  /** Behind the bearer token (401 without it). */
  auth?: boolean;
  /** The query parameters it takes; `strictQuery` refuses any other (400), so a typo is not silently ignored. */
  query?: z.ZodObject;
  strictQuery?: boolean;
  /** The last `{name}` takes the rest of the path, slashes and all (a file under a folder). */
  rest?: boolean;
  body?: { schema: z.ZodType; required: boolean };
  /** What it answers besides the error bodies of `errors`. */
  responses: Record<number, ResponseSpec>;
  /** The statuses it refuses with, each answered with an ErrorBody. */
  errors: readonly number[];
}

const planId = z.string().describe('The plan id, percent-encoded (encodeURIComponent).');
const botQuery = z.string().optional().describe("A bot's name (GET /api/bots lists them); default the first.");
const whole = (description: string) => z.int().min(0).optional().describe(description);
const historyQuery = z.object({
  after: whole('Rows after this row id (default 0: from the first).'),
  limit: whole('At most this many rows (default 500, at most 1000).'),
});
const json = (description: string, schema: z.ZodType): ResponseSpec => ({ description, schema });
const redirect: ResponseSpec = { description: 'A redirect.', headers: { location: 'Where to go.' } };
const file = (description: string): ResponseSpec => ({ description, contentType: '*/*' });

export const PATH_PARAMS: Record<string, z.ZodType> = {
  planId,
  name: z.string().describe("A tree's name (GET /api/trees lists them)."),
  path: z.string().describe('A file under the folder; it may hold slashes.'),
};

/**
 * Every route the server answers, by id: the router matches a request against these templates only, so a route is
 * in the OpenAPI document (generated from this table) exactly when the server answers it.
 */
export const ROUTES = {
  health: {
    method: 'GET',
    path: '/api/health',
    tag: 'journal',
    summary: "The journal's health: a dry run of the check (rolled back), changing nothing.",
    responses: { 200: json('The health report.', body.HealthReply) },
    errors: [503],
  },
  recover: {
    method: 'POST',
    path: '/api/health/recover',
    tag: 'journal',
    auth: true,
    summary: 'Runs the health check and recovers what it finds; the findings go to the event stream too.',
    responses: { 200: json('The health report after recovery.', body.HealthReply) },
    errors: [401, 503],
  },
  incidents: {
    method: 'GET',
    path: '/api/incidents',
    tag: 'journal',
    summary: "The journal's incidents, newest first.",
    query: z.object({
      step: z.string().optional().describe("Only this step's."),
      task: z.string().optional().describe('The same as step (its older name).'),
      plan: z.string().optional().describe("Only this plan's."),
      unresolved: z.boolean().optional().describe('Only the unresolved ones (true or false, 1 or 0).'),
      limit: whole('At most this many.'),
    }),
    responses: { 200: json('The incidents.', body.IncidentsReply) },
    errors: [400, 503],
  },
  capabilities: {
    method: 'GET',
    path: '/api/capabilities',
    tag: 'bots',
    summary: 'The capabilities, with their SLA as the journal and the bot measured it.',
    query: z.object({ bot: botQuery }),
    strictQuery: true,
    responses: { 200: json('The capabilities.', body.CapabilitiesReply) },
    errors: [400, 404, 503],
  },
  canaries: {
    method: 'GET',
    path: '/api/canaries',
    tag: 'bots',
    summary:
      'Each canary capability beside its stable version: their SLAs by world kind (its shadow runs, their real ones) and its standing by the promotion rule.',
    query: z.object({}),
    strictQuery: true,
    responses: { 200: json('The canaries.', body.CanariesReply) },
    errors: [400, 503],
  },
  bots: {
    method: 'GET',
    path: '/api/bots',
    tag: 'bots',
    summary: "Every bot this server drives (or a fleet gateway's fleet), with its state now.",
    responses: { 200: json('The bots.', body.BotsReply) },
    errors: [503],
  },
  botStatus: {
    method: 'GET',
    path: '/api/bot/status',
    tag: 'bots',
    summary: "One bot's status.",
    query: z.object({ bot: botQuery }),
    strictQuery: true,
    responses: { 200: json("The bot's status, or that no bot is attached.", body.BotStatusReply) },
    errors: [400, 404, 503],
  },
  runs: {
    method: 'GET',
    path: '/api/runs',
    tag: 'runs',
    summary: 'The journaled runs, newest first.',
    query: z.object({ limit: whole('At most this many.') }),
    responses: { 200: json('The runs.', body.RunsReply) },
    errors: [400, 503],
  },
  provenance: {
    method: 'GET',
    path: '/api/runs/{planId}',
    tag: 'runs',
    summary: "A plan's provenance, its steps a page at a time.",
    query: z.object({
      offset: whole('Steps from this one (default 0).'),
      limit: whole('At most this many steps (default 200, at most 1000).'),
    }),
    strictQuery: true,
    responses: { 200: json('The provenance.', body.ProvenanceReply) },
    errors: [400, 404, 503],
  },
  runStatus: {
    method: 'GET',
    path: '/api/runs/{planId}/status',
    tag: 'runs',
    summary:
      "A run's status, steps and failure (its code, whether a retry may help, what was unmet, the failed step's evidence), as MCP's get_run answers it.",
    query: z.object({
      waitMs: whole('Wait up to this many ms for the run to end before answering (at most an hour).'),
    }),
    strictQuery: true,
    responses: { 200: json('The run.', body.RunViewReply) },
    errors: [400, 404, 503],
  },
  escalation: {
    method: 'GET',
    path: '/api/runs/{planId}/escalation',
    tag: 'control',
    summary:
      "A plan's failure held for the client (serve --escalate-to-client): the step, its code, detail, unmet expectations and evidence, and when the hold ends; null when none is held. Answer it with POST /api/plans/<planId>/replace (the steps to run instead) or cancel.",
    query: z.object({
      waitMs: whole('Wait up to this many ms for a failure to be held or the run to end (at most an hour).'),
    }),
    strictQuery: true,
    responses: { 200: json("The plan's status and its held failure.", body.EscalationReply) },
    errors: [400, 404, 503],
  },
  nodeStates: {
    method: 'GET',
    path: '/api/runs/{planId}/nodes',
    tag: 'runs',
    summary: "A plan's node state changes, paged by the last row id seen.",
    query: historyQuery,
    strictQuery: true,
    responses: { 200: json('The node states.', body.NodeStatesReply) },
    errors: [400, 404, 503],
  },
  planEvents: {
    method: 'GET',
    path: '/api/runs/{planId}/events',
    tag: 'runs',
    summary:
      "A plan's journaled events, oldest first, paged by row id: poll with ?after=<the last id seen> to follow a run over plain HTTP.",
    query: historyQuery,
    strictQuery: true,
    responses: { 200: json('The events.', body.PlanEventsReply) },
    errors: [400, 404, 503],
  },
  execute: {
    method: 'POST',
    path: '/api/cognitive/execute',
    tag: 'runs',
    auth: true,
    summary:
      'Starts a plan (202), or with ?wait=true runs it to its end (200). A planId runs once: posting it again while it runs is a 409; on a fleet gateway a retry is accepted with queued: false.',
    query: z.object({
      wait: z.boolean().optional().describe("Answer at the run's end with its result (true or false, 1 or 0)."),
      bot: botQuery,
    }),
    strictQuery: true,
    body: { schema: body.ExecuteBody, required: true },
    responses: {
      200: json('With ?wait=true: the run ended; success is its verified result.', body.ExecuteEnded),
      202: json('Accepted: follow it at run (and over the event stream).', body.ExecuteAccepted),
    },
    errors: [400, 401, 404, 409, 413, 422, 503],
  },
  pause: controlRoute('pause', 'Pauses a running plan: its step stops, the plan waits for resume.'),
  resume: controlRoute('resume', 'Resumes a paused plan, re-validating the step it stopped in.'),
  cancel: controlRoute('cancel', 'Cancels a plan: its running step ends aborted.'),
  replace: controlRoute(
    'replace',
    'Replaces the steps not yet started with body.steps; a replacement that does not validate changes nothing (422).',
  ),
  trees: {
    method: 'GET',
    path: '/api/trees',
    tag: 'monitor',
    summary: 'The behavior trees the bots run, by name.',
    responses: { 200: json('The names.', body.TreesReply) },
    errors: [],
  },
  tree: {
    method: 'GET',
    path: '/api/trees/{name}',
    tag: 'monitor',
    rest: true,
    summary: "A tree's nodes, for drawing.",
    responses: { 200: json('The tree.', body.TreeReply) },
    errors: [404],
  },
  events: {
    method: 'GET',
    path: '/api/events',
    tag: 'runs',
    summary:
      'The event stream, a WebSocket: every executor event of every bot (each naming its bot), node batches, bot samples. Open it with the bearer token as the Authorization header or the subprotocol "bearer.<token>"; a plain GET is refused (426).',
    responses: { 101: { description: 'Switching to the WebSocket.' } },
    errors: [401, 403, 426, 503],
  },
  openapi: {
    method: 'GET',
    path: '/api/openapi.json',
    tag: 'server',
    summary: 'This document: the OpenAPI 3.1 contract of every route.',
    responses: { 200: json('The document.', body.OpenApiReply) },
    errors: [],
  },
  metrics: {
    method: 'GET',
    path: '/metrics',
    tag: 'server',
    summary: 'Prometheus metrics.',
    responses: { 200: { description: "Prometheus's text format.", contentType: 'text/plain' } },
    errors: [],
  },
  root: {
    method: 'GET',
    path: '/',
    tag: 'monitor',
    summary: 'Leads to the monitor.',
    responses: { 302: redirect },
    errors: [],
  },
  monitorRoot: {
    method: 'GET',
    path: '/monitor',
    tag: 'monitor',
    summary: 'Leads to the monitor.',
    responses: { 302: redirect },
    errors: [],
  },
  monitor: {
    method: 'GET',
    path: '/monitor/{path}',
    tag: 'monitor',
    rest: true,
    summary: "The monitor web app's files (its page for an empty path).",
    responses: { 200: file('The file.') },
    errors: [400, 404],
  },
  viewerRoot: {
    method: 'GET',
    path: '/viewer',
    tag: 'monitor',
    summary: "Leads to the first bot's 3D view.",
    responses: { 302: redirect },
    errors: [404],
  },
  viewer: {
    method: 'GET',
    path: '/viewer/{path}',
    tag: 'monitor',
    rest: true,
    summary: "A real bot's 3D view: /viewer/<bot>/ and its files (a bot's name alone leads there).",
    responses: { 200: file('The file.'), 302: redirect },
    errors: [400, 404],
  },
} as const satisfies Record<string, RouteSpec>;

export type RouteId = keyof typeof ROUTES;

function controlRoute(action: string, summary: string): RouteSpec {
  return {
    method: 'POST',
    path: `/api/plans/{planId}/${action}`,
    tag: 'control',
    auth: true,
    summary,
    body: { schema: body.ControlBody, required: false },
    responses: { 200: { description: 'Done.', schema: body.ControlAnswer } },
    errors: [400, 401, 404, 409, 413, ...(action === 'replace' ? [422] : []), 503],
  };
}
