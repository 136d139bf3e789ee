import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ExecutorEvent } from '../executor/events.js';
import { DEFAULT_BODY_LIMIT } from './body.js';
import { DEFAULT_EVENT_SOCKET_LIMITS, EventSocket, type EventSocketLimits } from './event-socket.js';
import { refuseUpgrade } from './upgrade-checks.js';
import { createExecutorMetrics } from './metrics.js';
import * as routes from './routes.js';
import { attachViewer, viewerPrefix, type Viewer } from './viewer.js';
import { createHttpApp } from './http-app.js';
import type { HeldEscalations } from './escalations.js';
import { Bots, type ApiBot } from './bots.js';
import type { NodeFeed } from './node-feed.js';
import type { TreeCatalog } from '../runtime/tree-catalog.js';
import type { HealthConfigInput } from '../journal/health-config.js';
import type { Journal } from '../journal/journal.js';
import type { CapabilityRegistry } from '../registry/registry.js';
import { createOperations } from '../operations/operations.js';
import type { FleetBots } from '../operations/fleet-bots.js';
import { systemClock } from '../clock/system-clock.js';
import type { Clock } from '../contracts/clock.js';
import { FleetFeed } from './fleet-feed.js';

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
  /**
   * The failures the bots' planner holds for the clients to answer (serve --escalate-to-client): read at
   * GET /api/runs/<planId>/escalation, answered by POST /api/plans/<planId>/replace or cancel.
   */
  escalations?: HeldEscalations;
}

export interface ApiServer {
  readonly server: Server;
  listen(port: number, host?: string): Promise<{ host: string; port: number; url: string }>;
  close(): Promise<void>;
}

/**
 * verbtree's HTTP API on Fastify (its routes are the route table's, `http-app.ts`):
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
    ...(options.escalations ? { escalations: options.escalations } : {}),
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
      // A cancelled plan whose failure waits for a client ends now, not at the hold's timeout.
      if (event.type === 'plan.cancelled')
        options.escalations?.answer(event.planId, { giveUp: `cancelled: ${event.reason}` });
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

  // Filled below, once the server exists for the 3D views' socket.io to attach to.
  const viewers = new Map<string, Viewer>();
  const app = createHttpApp({
    ctx,
    metrics,
    checkHealth,
    viewers,
    ...(options.trees ? { trees: options.trees } : {}),
    ...(options.monitorDir ? { monitorDir: options.monitorDir } : {}),
  });
  const server = app.server;
  // After the request listener above: each socket.io answers its own path and hands every other request on.
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
      await app.listen({ port, host });
      const address = server.address() as AddressInfo;
      return { host: address.address, port: address.port, url: `http://${address.address}:${address.port}` };
    },
    async close() {
      if (sampler) clearInterval(sampler);
      if (daemon) clearInterval(daemon);
      fleetFeed?.stop();
      for (const off of detach) off();
      unsubscribeNodes?.();
      for (const viewer of viewers.values()) await viewer.close();
      await socket.close();
      await app.close();
    },
  };
}
