import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ExecutorEvent } from '../executor/events.js';
import { DEFAULT_BODY_LIMIT } from './body.js';
import { DEFAULT_EVENT_SOCKET_LIMITS, EventSocket, type EventSocketLimits } from './event-socket.js';
import { refuseUpgrade } from './upgrade-checks.js';
import { HttpError } from './http-error.js';
import { createExecutorMetrics } from './metrics.js';
import { requireBearer } from './auth.js';
import * as routes from './routes.js';
import { control, LiveRuns } from './control-routes.js';
import { DEFAULT_MONITOR_DIR, monitorAsset, staticAsset } from './monitor-assets.js';
import { attachViewer, VIEWER_PREFIX, type Viewer } from './viewer.js';
import type { NodeFeed } from './node-feed.js';
import { treeShape } from './tree-shape.js';
import type { TreeCatalog } from '../runtime/tree-catalog.js';

export interface ApiServerOptions extends Omit<routes.ApiContext, 'bodyLimit' | 'bot' | 'viewer'> {
  bodyLimit?: number;
  bot?: routes.ApiContext['bot'] & { events: { on(type: 'event', listener: (event: ExecutorEvent) => void): unknown; off(type: 'event', listener: (event: ExecutorEvent) => void): unknown } };
  /** How often connected WebSocket clients get a `bot.state` sample; 0 for never. */
  botStateEveryMs?: number;
  /** Run a health check on this period, as a daemon would (0 for never); findings go to the event stream. */
  healthEveryMs?: number;
  /** Origins (e.g. "https://monitor.example") whose browser pages may open /api/events besides this server's own. */
  allowOrigins?: readonly string[];
  eventLimits?: Partial<EventSocketLimits>;
  /** The trees the bot runs, drawn by the monitor (`GET /api/trees/<name>`). */
  trees?: TreeCatalog;
  /** Node state batches for the event stream, fed by the runtime hooks of the bot's executor. */
  nodeFeed?: NodeFeed;
  /** The monitor web app's built files; default: the package's dist/monitor. */
  monitorDir?: string;
  /** The raw mineflayer bot, for the monitor's 3D view at /viewer/ (prismarine-viewer); none for SimWorld. */
  viewerBot?: Parameters<typeof attachViewer>[1];
}

/** The request target as a URL; a malformed one is the client's error (400), not the server's. */
function parseTarget(target: string | undefined): URL {
  try {
    return new URL(target ?? '/', 'http://localhost');
  } catch {
    throw new HttpError(400, 'malformed request target');
  }
}

function decodePath(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, `malformed percent-encoding in "${segment.slice(0, 100)}": encode the plan id with encodeURIComponent`);
  }
}

export interface ApiServer {
  readonly server: Server;
  listen(port: number, host?: string): Promise<{ host: string; port: number; url: string }>;
  close(): Promise<void>;
}

/**
 * verbtree's HTTP API on node:http (a handful of routes needs no framework):
 * health, incidents, capabilities with measured SLA, bot status, runs,
 * Prometheus metrics, a bearer-guarded execute endpoint, and the executor's
 * events over a WebSocket at /api/events. GET /api/health runs a health check
 * (recovering as `verbtree health check` does); what it finds is streamed too.
 */
export function createApiServer(options: ApiServerOptions): ApiServer {
  const ctx: routes.ApiContext = { ...options, bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT };
  const metrics = createExecutorMetrics();
  const live = new LiveRuns();
  const botState = () => {
    if (!options.bot) return null;
    const { world } = options.bot;
    const p = world.position();
    return { type: 'bot.state', at: Date.now(), connected: world.isConnected(), position: { x: p.x, y: p.y, z: p.z }, health: world.health(), food: world.food() };
  };
  const socket = new EventSocket(() => ({ type: 'hello', attached: options.bot !== undefined, bot: botState() }), { ...DEFAULT_EVENT_SOCKET_LIMITS, ...options.eventLimits });
  metrics.watchEventClients(() => ({ connected: socket.clients, dropped: socket.dropped }));
  const onEvent = (event: ExecutorEvent) => {
    metrics.observe(event);
    socket.broadcast(event);
  };
  options.bot?.events.on('event', onEvent);
  const unsubscribeNodes = options.nodeFeed?.subscribe((batch) => socket.broadcast(batch));
  const sampler = options.bot && (options.botStateEveryMs ?? 1000) > 0 ? setInterval(() => socket.clients > 0 && socket.broadcast(botState()), options.botStateEveryMs ?? 1000) : null;
  sampler?.unref();
  const checkHealth = (recover: boolean): routes.Reply => {
    const reply = routes.health(ctx, recover);
    const { findings, recoveryPaused } = (reply.body as { health: { findings: unknown[]; recoveryPaused: string | null } }).health;
    if (recover && findings.length > 0) socket.broadcast({ type: 'health.recovery', at: Date.now(), findings, recoveryPaused });
    return reply;
  };
  const daemon = options.healthEveryMs ? setInterval(() => checkHealth(true), options.healthEveryMs) : null;
  daemon?.unref();

  async function route(request: IncomingMessage): Promise<routes.Reply> {
    const url = parseTarget(request.url);
    const get = request.method === 'GET' || request.method === 'HEAD';
    const only = (method: string) => {
      if (request.method !== method) throw new HttpError(405, `${url.pathname} takes ${method}, not ${request.method}`, { allow: method });
    };
    switch (url.pathname) {
      case '/api/health':
        only('GET');
        return checkHealth(false);
      case '/api/health/recover':
        only('POST');
        requireBearer(request, ctx.token);
        return checkHealth(true);
      case '/api/incidents':
        only('GET');
        return routes.incidents(ctx, url.searchParams);
      case '/api/capabilities':
        only('GET');
        return routes.capabilities(ctx);
      case '/api/bot/status':
        only('GET');
        return routes.botStatus(ctx);
      case '/api/runs':
        only('GET');
        return routes.runs(ctx, url.searchParams);
      case '/api/cognitive/execute':
        only('POST');
        return routes.execute(ctx, request, url.searchParams, live);
      case '/viewer':
        only('GET');
        return { status: 302, body: '', headers: { location: VIEWER_PREFIX } };
      case '/':
      case '/monitor':
        only('GET');
        return { status: 302, body: '', headers: { location: '/monitor/' } };
      case '/api/trees':
        only('GET');
        return { status: 200, body: { success: true, trees: options.trees?.names() ?? [] } };
      case '/metrics':
        only('GET');
        return { status: 200, body: await metrics.registry.metrics(), contentType: metrics.registry.contentType };
      default:
        if (url.pathname.startsWith('/api/plans/')) {
          only('POST');
          const [planId = '', action = '', ...rest] = url.pathname.slice('/api/plans/'.length).split('/');
          if (rest.length > 0 || !planId || !action) throw new HttpError(404, 'control routes are POST /api/plans/<planId>/<pause|resume|cancel|replace>');
          return control(ctx, live, request, decodePath(planId), action);
        }
        if (url.pathname.startsWith(VIEWER_PREFIX) && get) {
          if (!viewer) throw new HttpError(404, 'no 3D view: it needs a mineflayer bot (not SimWorld) and the prismarine-viewer package');
          const asset = staticAsset(viewer.assets, decodePath(url.pathname.slice(VIEWER_PREFIX.length)));
          return { status: 200, body: asset.body, contentType: asset.contentType };
        }
        if (url.pathname.startsWith('/monitor/') && get) {
          const asset = monitorAsset(options.monitorDir ?? DEFAULT_MONITOR_DIR, decodePath(url.pathname.slice('/monitor/'.length)));
          return { status: 200, body: asset.body, contentType: asset.contentType };
        }
        if (url.pathname.startsWith('/api/trees/') && get) {
          const name = decodePath(url.pathname.slice('/api/trees/'.length));
          const tree = options.trees?.get(name);
          if (!tree) throw new HttpError(404, `no tree "${name}"${options.trees ? '; GET /api/trees lists them' : ': this server has no trees loaded'}`);
          return { status: 200, body: { success: true, tree: treeShape(tree) } };
        }
        if (url.pathname.startsWith('/api/runs/') && get) {
          const [planId = '', view, ...rest] = url.pathname.slice('/api/runs/'.length).split('/');
          if (view === undefined) return routes.provenance(ctx, decodePath(planId), url.searchParams);
          if (view === 'nodes' && rest.length === 0) return routes.nodeStates(ctx, decodePath(planId), url.searchParams);
          if (view === 'events' && rest.length === 0) return routes.planEvents(ctx, decodePath(planId), url.searchParams);
          throw new HttpError(404, `no route GET ${url.pathname}; a run is GET /api/runs/<planId>, its node states GET /api/runs/<planId>/nodes, its events GET /api/runs/<planId>/events`);
        }
        throw new HttpError(404, `no route ${request.method} ${url.pathname}; see GET /api/health, /api/incidents, /api/capabilities, /api/bot/status, /api/runs, /api/runs/<planId>/nodes, /api/runs/<planId>/events, /api/trees, /metrics, POST /api/cognitive/execute, POST /api/plans/<planId>/<pause|resume|cancel|replace>, WS /api/events, the monitor at /monitor/`);
    }
  }

  const send = (response: ServerResponse, reply: routes.Reply) => {
    const text = typeof reply.body === 'string' || Buffer.isBuffer(reply.body) ? reply.body : JSON.stringify(reply.body);
    response.writeHead(reply.status, { 'content-type': reply.contentType ?? 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...reply.headers });
    response.end(text);
  };

  const server = createServer((request, response) => {
    route(request).then(
      (reply) => send(response, reply),
      (error: unknown) => {
        const status = error instanceof HttpError ? error.status : 500;
        const extra = error instanceof HttpError ? error.extra : {};
        if (status === 405 && typeof extra.allow === 'string') response.setHeader('allow', extra.allow);
        if (status === 401) response.setHeader('www-authenticate', 'Bearer');
        // An unread body (refused before reading) must not keep the connection busy.
        if (status === 413 || status === 401) response.setHeader('connection', 'close');
        send(response, { status, body: { success: false, error: error instanceof Error ? error.message : String(error), ...extra } });
      },
    );
  });
  // After the request listener above: socket.io answers its own path and hands every other request on.
  const viewer: Viewer | null = options.viewerBot ? attachViewer(server, options.viewerBot) : null;
  ctx.viewer = viewer ? VIEWER_PREFIX : null;
  server.on('upgrade', (request, duplex, head) => {
    // The 3D view's socket.io upgrades are its own.
    if (viewer && (request.url ?? '').startsWith(VIEWER_PREFIX)) return;
    const refusal = refuseUpgrade(request, { token: ctx.token, allowOrigins: options.allowOrigins ?? [], full: socket.full });
    if (refusal) {
      duplex.end(`HTTP/1.1 ${refusal.status}\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\n${refusal.reason}\n`);
      return;
    }
    socket.upgrade(request, duplex, head);
  });

  return {
    server,
    listen(port, host = '127.0.0.1') {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          const address = server.address() as AddressInfo;
          resolve({ host: address.address, port: address.port, url: `http://${address.address}:${address.port}` });
        });
      });
    },
    async close() {
      if (sampler) clearInterval(sampler);
      if (daemon) clearInterval(daemon);
      options.bot?.events.off('event', onEvent);
      unsubscribeNodes?.();
      await viewer?.close();
      await socket.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
