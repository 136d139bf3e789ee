import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ExecutorEvent } from '../executor/events.js';
import { DEFAULT_BODY_LIMIT } from './body.js';
import { DEFAULT_EVENT_SOCKET_LIMITS, EventSocket, type EventSocketLimits } from './event-socket.js';
import { refuseUpgrade } from './upgrade-checks.js';
import { HttpError, httpErrorOf } from './http-error.js';
import { createExecutorMetrics } from './metrics.js';
import { requireBearer } from './auth.js';
import * as routes from './routes.js';
import { control } from './control-routes.js';
import { DEFAULT_MONITOR_DIR, monitorAsset, staticAsset } from './monitor-assets.js';
import { attachViewer, VIEWER_PREFIX, viewerPrefix, type Viewer } from './viewer.js';
import { Bots, type ApiBot } from './bots.js';
import type { NodeFeed } from './node-feed.js';
import { treeShape } from './tree-shape.js';
import type { TreeCatalog } from '../runtime/tree-catalog.js';
import type { HealthConfigInput } from '../journal/health-config.js';
import type { Journal } from '../journal/journal.js';
import type { CapabilityRegistry } from '../registry/registry.js';
import { createOperations } from '../operations/operations.js';
import type { FleetBots } from '../operations/fleet-bots.js';
import { systemClock } from '../clock/system-clock.js';
import type { Clock } from '../contracts/clock.js';
import { FleetFeed } from './fleet-feed.js';
import { OperationError } from '../operations/errors.js';

/** What the API serves: always a journal and a registry; the bots (each an executor and its world) when any are attached. */
export interface ApiServerOptions {
  journal: Journal;
  journalPath: string;
  registry: CapabilityRegistry;
  /** Guards control (execute, steer, recover) and the event stream; without one, control is refused. */
  token?: string;
  bodyLimit?: number;
  health?: HealthConfigInput;
  /** This server's runner id, so its own health check never judges itself. */
  selfRunnerId?: string;
  /** The bots this server drives and shows (none: a read-only API over the journal); the first answers requests that name none. */
  bots?: readonly ApiBot[];
  /** How often connected WebSocket clients get a `bots.state` sample of every bot; 0 for never. */
  botStateEveryMs?: number;
  /** Run a health check on this period, as a daemon would (0 for never); findings go to the event stream. */
  healthEveryMs?: number;
  /** Origins (e.g. "https://monitor.example") whose browser pages may open /api/events besides this server's own. */
  allowOrigins?: readonly string[];
  eventLimits?: Partial<EventSocketLimits>;
  /** Node state batches of every bot's trees, fed by the runtime hooks of their executors (`nodeFeed.hooksFor(bot)`). */
  nodeFeed?: NodeFeed;
  /** The trees the bots run, drawn by the monitor (`GET /api/trees/<name>`). */
  trees?: TreeCatalog;
  /** The monitor web app's built files; default: the package's dist/monitor. */
  monitorDir?: string;
  /**
   * A fleet gateway (no `bots` of its own): plans are queued for the fleet's bots, held by workers elsewhere, and
   * the event stream relays every event the shared journal records.
   */
  fleet?: FleetBots;
  /** The clock the fleet's stream reads the journal on; default the system's. */
  clock?: Clock;
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
    throw new HttpError(
      400,
      `malformed percent-encoding in "${segment.slice(0, 100)}": encode the plan id with encodeURIComponent`,
    );
  }
}

export interface ApiServer {
  readonly server: Server;
  listen(port: number, host?: string): Promise<{ host: string; port: number; url: string }>;
  close(): Promise<void>;
}

/**
 * verbtree's HTTP API on node:http (a handful of routes needs no framework):
 * health, incidents, capabilities with measured SLA, the bots and their status, runs,
 * Prometheus metrics, a bearer-guarded execute endpoint, and the executors'
 * events (each naming its bot) over a WebSocket at /api/events. GET /api/health runs a health check
 * (recovering as `verbtree health check` does); what it finds is streamed too.
 */
export function createApiServer(options: ApiServerOptions): ApiServer {
  const bots = new Bots(options.bots ?? []);
  if (options.fleet && bots.size > 0)
    throw new Error('a fleet gateway drives no bot of its own: give bots or fleet, not both');
  const ops = createOperations({
    registry: options.registry,
    journal: options.journal,
    bots: options.fleet ?? bots,
    ...(options.health ? { health: options.health } : {}),
    ...(options.selfRunnerId ? { selfRunnerId: options.selfRunnerId } : {}),
  });
  const ctx: routes.ApiContext = {
    ops,
    journalPath: options.journalPath,
    ...(options.token ? { token: options.token } : {}),
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    viewers: new Map(),
  };
  const metrics = createExecutorMetrics();
  const botsState = () => ({ type: 'bots.state', at: Date.now(), bots: bots.samples() });
  const socket = new EventSocket(
    () => fleetFeed?.hello() ?? { type: 'hello', attached: bots.size > 0, bots: bots.samples() },
    { ...DEFAULT_EVENT_SOCKET_LIMITS, ...options.eventLimits },
  );
  const fleetFeed: FleetFeed | null = options.fleet
    ? new FleetFeed(
        options.journal,
        options.fleet,
        (message) => socket.broadcast(message),
        () => socket.clients > 0,
        {
          clock: options.clock ?? systemClock,
        },
      )
    : null;
  metrics.watchEventClients(() => ({ connected: socket.clients, dropped: socket.dropped }));
  // Every message on the stream names its bot (a node batch, each of its runs'); a client showing one bot filters on it.
  const detach = bots.list.map((bot) => {
    const onEvent = (event: ExecutorEvent) => {
      metrics.observe(event);
      bots.observe(bot, event);
      socket.broadcast({ ...event, bot: bot.id });
    };
    bot.events.on('event', onEvent);
    return () => bot.events.off('event', onEvent);
  });
  const unsubscribeNodes = options.nodeFeed?.subscribe((batch) => socket.broadcast(batch));
  // One sample of every bot per period, not a message per bot: the stream's message rate does not grow with the fleet.
  const everyMs = options.botStateEveryMs ?? 1000;
  const sampler =
    bots.size > 0 && everyMs > 0
      ? setInterval(() => socket.clients > 0 && socket.broadcast(botsState()), everyMs)
      : null;
  sampler?.unref();
  const checkHealth = async (recover: boolean): Promise<routes.Reply> => {
    const report = await ops.health({ recover });
    const { findings, recoveryPaused } = report;
    if (recover && findings.length > 0)
      socket.broadcast({ type: 'health.recovery', at: Date.now(), findings, recoveryPaused });
    return routes.healthReply(ctx, report, recover);
  };
  // A check the journal fails (busy, say) is tried again on the next period.
  const daemon = options.healthEveryMs
    ? setInterval(() => void checkHealth(true).catch(() => undefined), options.healthEveryMs)
    : null;
  daemon?.unref();

  /** /viewer/ leads to the first bot's view. */
  const viewerRedirect = (): routes.Reply => {
    const first = ctx.viewers.values().next().value;
    if (!first)
      throw new HttpError(
        404,
        'no 3D view: it needs a mineflayer bot (not SimWorld) and the prismarine-viewer package',
      );
    return { status: 302, body: '', headers: { location: first } };
  };

  async function route(request: IncomingMessage): Promise<routes.Reply> {
    const url = parseTarget(request.url);
    const get = request.method === 'GET' || request.method === 'HEAD';
    const only = (method: string) => {
      if (request.method !== method)
        throw new HttpError(405, `${url.pathname} takes ${method}, not ${request.method}`, { allow: method });
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
        return routes.capabilities(ctx, url.searchParams);
      case '/api/bots':
        only('GET');
        return routes.botList(ctx);
      case '/api/bot/status':
        only('GET');
        return routes.botStatus(ctx, url.searchParams);
      case '/api/runs':
        only('GET');
        return routes.runs(ctx, url.searchParams);
      case '/api/cognitive/execute':
        only('POST');
        return routes.execute(ctx, request, url.searchParams);
      case '/viewer':
        only('GET');
        return viewerRedirect();
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
          if (rest.length > 0 || !planId || !action)
            throw new HttpError(404, 'control routes are POST /api/plans/<planId>/<pause|resume|cancel|replace>');
          return control(ctx, request, decodePath(planId), action);
        }
        if (url.pathname.startsWith(VIEWER_PREFIX) && get) {
          const [botId = '', ...file] = url.pathname.slice(VIEWER_PREFIX.length).split('/');
          if (!botId) return viewerRedirect();
          const viewer = viewers.get(decodePath(botId));
          if (!viewer)
            throw new HttpError(
              404,
              `no 3D view of "${decodePath(botId).slice(0, 60)}": it needs a mineflayer bot (not SimWorld) and the prismarine-viewer package${viewers.size > 0 ? `; the views are ${[...ctx.viewers.values()].join(', ')}` : ''}`,
            );
          if (file.length === 0) return { status: 302, body: '', headers: { location: viewer.prefix } };
          const asset = staticAsset(viewer.assets, decodePath(file.join('/')));
          return { status: 200, body: asset.body, contentType: asset.contentType };
        }
        if (url.pathname.startsWith('/monitor/') && get) {
          const asset = monitorAsset(
            options.monitorDir ?? DEFAULT_MONITOR_DIR,
            decodePath(url.pathname.slice('/monitor/'.length)),
          );
          return { status: 200, body: asset.body, contentType: asset.contentType };
        }
        if (url.pathname.startsWith('/api/trees/') && get) {
          const name = decodePath(url.pathname.slice('/api/trees/'.length));
          const tree = options.trees?.get(name);
          if (!tree)
            throw new HttpError(
              404,
              `no tree "${name}"${options.trees ? '; GET /api/trees lists them' : ': this server has no trees loaded'}`,
            );
          return { status: 200, body: { success: true, tree: treeShape(tree) } };
        }
        if (url.pathname.startsWith('/api/runs/') && get) {
          const [planId = '', view, ...rest] = url.pathname.slice('/api/runs/'.length).split('/');
          if (view === undefined) return routes.provenance(ctx, decodePath(planId), url.searchParams);
          if (view === 'nodes' && rest.length === 0)
            return routes.nodeStates(ctx, decodePath(planId), url.searchParams);
          if (view === 'events' && rest.length === 0)
            return routes.planEvents(ctx, decodePath(planId), url.searchParams);
          throw new HttpError(
            404,
            `no route GET ${url.pathname}; a run is GET /api/runs/<planId>, its node states GET /api/runs/<planId>/nodes, its events GET /api/runs/<planId>/events`,
          );
        }
        throw new HttpError(
          404,
          `no route ${request.method} ${url.pathname}; see GET /api/health, /api/incidents, /api/capabilities, /api/bots, /api/bot/status, /api/runs, /api/runs/<planId>/nodes, /api/runs/<planId>/events, /api/trees, /metrics, POST /api/cognitive/execute, POST /api/plans/<planId>/<pause|resume|cancel|replace>, WS /api/events, the monitor at /monitor/, 3D views at /viewer/<bot>/`,
        );
    }
  }

  const send = (response: ServerResponse, reply: routes.Reply) => {
    const text =
      typeof reply.body === 'string' || Buffer.isBuffer(reply.body) ? reply.body : JSON.stringify(reply.body);
    response.writeHead(reply.status, {
      'content-type': reply.contentType ?? 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
      ...reply.headers,
    });
    response.end(text);
  };

  const server = createServer((request, response) => {
    route(request).then(
      (reply) => send(response, reply),
      (raw: unknown) => {
        // Each operation's refusal answered as HTTP answers its kind.
        const error = raw instanceof OperationError ? httpErrorOf(raw) : raw;
        const status = error instanceof HttpError ? error.status : 500;
        const extra = error instanceof HttpError ? error.extra : {};
        if (status === 405 && typeof extra.allow === 'string') response.setHeader('allow', extra.allow);
        if (error instanceof HttpError)
          for (const [name, value] of Object.entries(error.headers)) response.setHeader(name, value);
        if (status === 401) response.setHeader('www-authenticate', 'Bearer');
        // An unread body (refused before reading) must not keep the connection busy.
        if (status === 413 || status === 401) response.setHeader('connection', 'close');
        send(response, {
          status,
          body: { success: false, error: error instanceof Error ? error.message : String(error), ...extra },
        });
      },
    );
  });
  // After the request listener above: each socket.io answers its own path and hands every other request on.
  const viewers = new Map<string, Viewer>();
  for (const bot of bots.list) {
    if (!bot.viewerBot) continue;
    viewers.set(bot.id, attachViewer(server, bot.viewerBot, viewerPrefix(bot.id)));
    ctx.viewers.set(bot.id, viewerPrefix(bot.id));
  }
  server.on('upgrade', (request, duplex, head) => {
    // The 3D views' socket.io upgrades are their own.
    if ([...viewers.values()].some((v) => (request.url ?? '').startsWith(v.prefix))) return;
    const refusal = refuseUpgrade(request, {
      token: ctx.token,
      allowOrigins: options.allowOrigins ?? [],
      full: socket.full,
    });
    if (refusal) {
      duplex.end(
        `HTTP/1.1 ${refusal.status}\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\n${refusal.reason}\n`,
      );
      return;
    }
    socket.upgrade(request, duplex, head);
  });

  return {
    server,
    async listen(port, host = '127.0.0.1') {
      await fleetFeed?.start();
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
      fleetFeed?.stop();
      for (const off of detach) off();
      unsubscribeNodes?.();
      for (const viewer of viewers.values()) await viewer.close();
      await socket.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
