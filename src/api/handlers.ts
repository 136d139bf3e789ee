import type { IncomingMessage } from 'node:http';
import type { TreeCatalog } from '../runtime/tree-catalog.js';
import { control } from './control-routes.js';
import { openApiDocument } from './contract/openapi.js';
import type { RouteId } from './contract/route-table.js';
import { HttpError } from './http-error.js';
import type { ExecutorMetrics } from './metrics.js';
import { DEFAULT_MONITOR_DIR, monitorAsset, staticAsset } from './monitor-assets.js';
import * as routes from './routes.js';
import type { Viewer } from './viewer.js';

/** What a route's handler gets: the request, its query, the template's params (decoded), and its body if any. */
export interface RouteRequest {
  request: IncomingMessage;
  query: URLSearchParams;
  params: Record<string, string>;
  /** The body as JSON, undefined when it was empty; read (within the limit) by the framework. */
  body: unknown;
}

export type Handler = (at: RouteRequest) => routes.Reply | Promise<routes.Reply>;

export interface HandlerDeps {
  ctx: routes.ApiContext;
  metrics: ExecutorMetrics;
  /** GET /api/health (a dry run) and POST /api/health/recover. */
  checkHealth(recover: boolean): Promise<routes.Reply>;
  viewers: ReadonlyMap<string, Viewer>;
  trees?: TreeCatalog;
  monitorDir?: string;
}

const NO_VIEW = 'it needs a mineflayer bot (not SimWorld) and the prismarine-viewer package';
const redirect = (location: string): routes.Reply => ({ status: 302, body: '', headers: { location } });

/** The handler of every route of the table: the record's type makes a route without one a compile error. */
export function handlers(deps: HandlerDeps): Record<RouteId, Handler> {
  const { ctx } = deps;
  let document: string | null = null;
  const firstView = () => {
    const first = ctx.viewers.values().next().value;
    if (!first) throw new HttpError(404, `no 3D view: ${NO_VIEW}`);
    return redirect(first);
  };
  const steer =
    (action: 'pause' | 'resume' | 'cancel' | 'replace'): Handler =>
    ({ params, body }) =>
      control(ctx, params.planId!, action, body);
  return {
    health: () => deps.checkHealth(false),
    recover: () => deps.checkHealth(true),
    incidents: ({ query }) => routes.incidents(ctx, query),
    capabilities: ({ query }) => routes.capabilities(ctx, query),
    canaries: () => routes.canaries(ctx),
    bots: () => routes.botList(ctx),
    botStatus: ({ query }) => routes.botStatus(ctx, query),
    runs: ({ query }) => routes.runs(ctx, query),
    provenance: ({ params, query }) => routes.provenance(ctx, params.planId!, query),
    runStatus: ({ request, params, query }) => routes.runStatus(ctx, request, params.planId!, query),
    escalation: ({ request, params, query }) => routes.escalation(ctx, request, params.planId!, query),
    nodeStates: ({ params, query }) => routes.nodeStates(ctx, params.planId!, query),
    planEvents: ({ params, query }) => routes.planEvents(ctx, params.planId!, query),
    execute: ({ request, query, body }) => routes.execute(ctx, request, query, body),
    pause: steer('pause'),
    resume: steer('resume'),
    cancel: steer('cancel'),
    replace: steer('replace'),
    trees: () => ({ status: 200, body: { success: true, trees: deps.trees?.names() ?? [] } }),
    tree: ({ params }) => routes.tree(deps.trees, params.name!),
    events: () => {
      throw new HttpError(
        426,
        'the event stream is a WebSocket: open ws://<host>/api/events with the bearer token; to follow one plan over plain HTTP, poll GET /api/runs/<planId>/events?after=<last id>',
      );
    },
    openapi: () => {
      document ??= JSON.stringify(openApiDocument());
      return { status: 200, body: document };
    },
    metrics: async () => ({
      status: 200,
      body: await deps.metrics.registry.metrics(),
      contentType: deps.metrics.registry.contentType,
    }),
    root: () => redirect('/monitor/'),
    monitorRoot: () => redirect('/monitor/'),
    monitor: ({ params }) => {
      const asset = monitorAsset(deps.monitorDir ?? DEFAULT_MONITOR_DIR, params.path!);
      return { status: 200, body: asset.body, contentType: asset.contentType };
    },
    viewerRoot: firstView,
    viewer: ({ params }) => {
      const [botId = '', ...file] = params.path!.split('/');
      if (!botId) return firstView();
      const viewer = deps.viewers.get(botId);
      if (!viewer)
        throw new HttpError(
          404,
          `no 3D view of "${botId.slice(0, 60)}": ${NO_VIEW}${deps.viewers.size > 0 ? `; the views are ${[...ctx.viewers.values()].join(', ')}` : ''}`,
        );
      if (file.length === 0) return redirect(viewer.prefix);
      const asset = staticAsset(viewer.assets, file.join('/'));
      return { status: 200, body: asset.body, contentType: asset.contentType };
    },
  };
}

/** Refuses (400) a query parameter the route does not take, so a typo is not silently ignored. */
export function onlyParams(query: URLSearchParams, allowed: readonly string[]): void {
  for (const name of query.keys()) {
    if (!allowed.includes(name))
      throw new HttpError(
        400,
        `unknown query parameter "${name}"; this route takes ${allowed.length > 0 ? allowed.join(', ') : 'none'}`,
      );
  }
}
