import type { IncomingMessage } from 'node:http';
import type { TreeCatalog } from '../runtime/tree-catalog.js';
import { requireBearer } from './auth.js';
import { control } from './control-routes.js';
import { decodePath, matchRoute } from './contract/match.js';
import { openApiDocument } from './contract/openapi.js';
import type { RouteId } from './contract/route-table.js';
import { HttpError } from './http-error.js';
import type { ExecutorMetrics } from './metrics.js';
import { DEFAULT_MONITOR_DIR, monitorAsset, staticAsset } from './monitor-assets.js';
import * as routes from './routes.js';
import type { Viewer } from './viewer.js';

/** What a route's handler gets: the request, its query, and the template's params. */
interface RouteRequest {
  request: IncomingMessage;
  query: URLSearchParams;
  params: Record<string, string>;
}

type Handler = (at: RouteRequest) => routes.Reply | Promise<routes.Reply>;

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
function handlers(deps: HandlerDeps): Record<RouteId, Handler> {
  const { ctx } = deps;
  let document: string | null = null;
  const firstView = () => {
    const first = ctx.viewers.values().next().value;
    if (!first) throw new HttpError(404, `no 3D view: ${NO_VIEW}`);
    return redirect(first);
  };
  const steer =
    (action: 'pause' | 'resume' | 'cancel' | 'replace'): Handler =>
    ({ request, params }) =>
      control(ctx, request, params.planId!, action);
  return {
    health: () => deps.checkHealth(false),
    recover: () => deps.checkHealth(true),
    incidents: ({ query }) => routes.incidents(ctx, query),
    capabilities: ({ query }) => routes.capabilities(ctx, query),
    bots: () => routes.botList(ctx),
    botStatus: ({ query }) => routes.botStatus(ctx, query),
    runs: ({ query }) => routes.runs(ctx, query),
    provenance: ({ params, query }) => routes.provenance(ctx, params.planId!, query),
    runStatus: ({ request, params, query }) => routes.runStatus(ctx, request, params.planId!, query),
    escalation: ({ request, params, query }) => routes.escalation(ctx, request, params.planId!, query),
    nodeStates: ({ params, query }) => routes.nodeStates(ctx, params.planId!, query),
    planEvents: ({ params, query }) => routes.planEvents(ctx, params.planId!, query),
    execute: ({ request, query }) => routes.execute(ctx, request, query),
    pause: steer('pause'),
    resume: steer('resume'),
    cancel: steer('cancel'),
    replace: steer('replace'),
    trees: () => ({ status: 200, body: { success: true, trees: deps.trees?.names() ?? [] } }),
    tree: ({ params }) => routes.tree(deps.trees, decodePath(params.name!)),
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
      const asset = monitorAsset(deps.monitorDir ?? DEFAULT_MONITOR_DIR, decodePath(params.path!));
      return { status: 200, body: asset.body, contentType: asset.contentType };
    },
    viewerRoot: firstView,
    viewer: ({ params }) => {
      const [botId = '', ...file] = params.path!.split('/');
      if (!botId) return firstView();
      const viewer = deps.viewers.get(decodePath(botId));
      if (!viewer)
        throw new HttpError(
          404,
          `no 3D view of "${decodePath(botId).slice(0, 60)}": ${NO_VIEW}${deps.viewers.size > 0 ? `; the views are ${[...ctx.viewers.values()].join(', ')}` : ''}`,
        );
      if (file.length === 0) return redirect(viewer.prefix);
      const asset = staticAsset(viewer.assets, decodePath(file.join('/')));
      return { status: 200, body: asset.body, contentType: asset.contentType };
    },
  };
}

/** The request target as a URL; a malformed one is the client's error (400), not the server's. */
function parseTarget(target: string | undefined): URL {
  try {
    return new URL(target ?? '/', 'http://localhost');
  } catch {
    throw new HttpError(400, 'malformed request target');
  }
}

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

/**
 * Answers a request by the route table: the route its method and path fit, then the token (before anything is
 * read: a client retrying a 401 never runs a plan twice), then the query's names, then the route's handler.
 */
export function createRouter(deps: HandlerDeps): (request: IncomingMessage) => Promise<routes.Reply> {
  const handle = handlers(deps);
  return async (request) => {
    const url = parseTarget(request.url);
    const { id, route, params } = matchRoute(request.method ?? 'GET', url.pathname);
    if (route.auth) requireBearer(request, deps.ctx.token);
    if (route.strictQuery) onlyParams(url.searchParams, Object.keys(route.query?.shape ?? {}));
    return handle[id]({ request, query: url.searchParams, params });
  };
}
