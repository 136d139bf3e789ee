import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { requireOptional } from '../missing-package.js';

/**
 * Where the 3D views live on the API server: a bot's at /viewer/<bot>/, its socket.io path under it, as
 * prismarine-viewer's page expects.
 */
export const VIEWER_PREFIX = '/viewer/';

export const viewerPrefix = (botId: string) => `${VIEWER_PREFIX}${encodeURIComponent(botId)}/`;

export interface ViewerBot {
  version: string;
  world: unknown;
  entity: { position: unknown; yaw: number };
  on(event: 'move', listener: () => void): unknown;
  removeListener(event: 'move', listener: () => void): unknown;
}

interface WorldViewInstance {
  init(position: unknown): void;
  updatePosition(position: unknown): void;
  listenToBot(bot: unknown): void;
  removeListenersFromBot(bot: unknown): void;
}

interface IoSocket {
  emit(event: string, payload: unknown): void;
  on(event: 'disconnect', listener: () => void): void;
  disconnect(): void;
}

interface Engine {
  handleRequest(request: IncomingMessage, response: ServerResponse): void;
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
}
type EngineClass = new () => Engine;
type IoServerClass = new (options: object) => {
  bind(engine: Engine): void;
  on(event: 'connection', listener: (socket: IoSocket) => void): void;
  close(callback?: () => void): void;
};

/** Each server's views' engines by socket.io path, behind one request and one upgrade listener for them all. */
const routers = new WeakMap<Server, Map<string, Engine>>();

/**
 * The server's router of 3D views, installed at its first view: a request or upgrade under a view's socket.io path
 * goes to that view's engine; any other request goes to the listeners the server had (the API), and any other upgrade
 * is left to the API's own upgrade listener.
 */
function viewRoutes(server: Server): Map<string, Engine> {
  const known = routers.get(server);
  if (known) return known;
  const engines = new Map<string, Engine>();
  const engineFor = (url = '') => [...engines].find(([path]) => url.startsWith(path))?.[1];
  const earlier = server.listeners('request') as ((request: IncomingMessage, response: ServerResponse) => void)[];
  server.removeAllListeners('request');
  server.on('request', (request, response) => {
    const engine = engineFor(request.url);
    if (engine) engine.handleRequest(request, response);
    else for (const listener of earlier) listener.call(server, request, response);
  });
  server.on('upgrade', (request, socket, head) => engineFor(request.url)?.handleUpgrade(request, socket, head));
  routers.set(server, engines);
  return engines;
}

/** Whether prismarine-viewer is installed (an optional dependency: 370 MB of textures for every version). */
export function viewerInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve('prismarine-viewer/package.json');
    return true;
  } catch {
    return false;
  }
}

export interface Viewer {
  /** Where this view is served, e.g. /viewer/<bot>/. */
  readonly prefix: string;
  /** The folder of the viewer's page and textures (prismarine-viewer's public/). */
  readonly assets: string;
  readonly clients: number;
  close(): Promise<void>;
}

/**
 * A 3D view of the bot's world, from prismarine-viewer (which renders up to Minecraft 1.21.4, the version
 * verbtree speaks), served by the API server itself rather than by the viewer's own express server: that one
 * listens on every interface and cannot report a free port. Its page is at `prefix` (/viewer/<bot>/), its
 * socket.io at <prefix>socket.io, one per bot on the same server; what it sends is what the bot's client
 * knows of the world, updated as the bot moves.
 */
export function attachViewer(server: Server, bot: ViewerBot, prefix: string, viewDistance = 6): Viewer {
  // Its world view only: the package's entry loads its renderer, which needs the native canvas package.
  requireOptional('prismarine-viewer', "the monitor's 3D view", 'prismarine-viewer/package.json');
  const manifest = createRequire(import.meta.url).resolve('prismarine-viewer/package.json');
  const viewerRequire = createRequire(manifest);
  const { WorldView } = viewerRequire('./viewer/lib/worldView') as {
    WorldView: new (world: unknown, distance: number, position: unknown, socket: IoSocket) => WorldViewInstance;
  };
  const io = new (viewerRequire('socket.io') as { Server: IoServerClass }).Server({ serveClient: false });
  // One engine per view, reached through the server's one router of views (`viewRoutes`): a socket.io attached to the
  // server itself would add its own request, upgrade, listening and close listeners for every bot.
  const engines = viewRoutes(server);
  const engine = new (
    createRequire(viewerRequire.resolve('socket.io'))('engine.io') as { Server: EngineClass }
  ).Server();
  io.bind(engine);
  engines.set(`${prefix}socket.io/`, engine);
  const sockets = new Set<IoSocket>();
  io.on('connection', (socket) => {
    sockets.add(socket);
    socket.emit('version', bot.version);
    const view = new WorldView(bot.world, viewDistance, bot.entity.position, socket);
    view.init(bot.entity.position);
    const moved = () => {
      socket.emit('position', { pos: bot.entity.position, yaw: bot.entity.yaw, addMesh: true });
      view.updatePosition(bot.entity.position);
    };
    bot.on('move', moved);
    view.listenToBot(bot);
    socket.on('disconnect', () => {
      bot.removeListener('move', moved);
      view.removeListenersFromBot(bot);
      sockets.delete(socket);
    });
  });
  return {
    prefix,
    assets: join(dirname(manifest), 'public'),
    get clients() {
      return sockets.size;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.disconnect();
        engines.delete(`${prefix}socket.io/`);
        // Bound to an engine, not attached to the server: socket.io's close leaves the API's server to the API.
        io.close(() => resolve());
      }),
  };
}
