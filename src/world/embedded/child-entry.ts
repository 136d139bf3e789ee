/**
 * Runs in a forked child: the embedded server, driven over IPC by
 * {@link startEmbeddedServerInChild}. Pushes the players' server-side state
 * every 50 ms so the parent can answer synchronous reads, and exits on its own
 * once stopped or when the parent goes away.
 */
import type { ChildStartOptions, FromChild, ToChild } from './child-protocol.js';
import { startEmbeddedServer, type EmbeddedServer } from './embedded-server.js';

const PLAYER_PUSH_MS = 50;

let server: EmbeddedServer | null = null;
let pushTimer: NodeJS.Timeout | null = null;

function send(message: FromChild): void {
  if (process.connected) process.send?.(message);
}

async function start(options: ChildStartOptions): Promise<void> {
  try {
    server = await startEmbeddedServer({
      scenario: options.scenario,
      port: options.port,
      host: options.host,
      ...(options.viewDistance ? { viewDistance: options.viewDistance } : {}),
      ...(options.entityTrackingRange ? { entityTrackingRange: options.entityTrackingRange } : {}),
      ...(options.storage ? { storage: options.storage } : {}),
      ...(options.forwardLog ? { log: (line: string) => send({ type: 'log', line }) } : {}),
    });
  } catch (error) {
    send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
    if (process.connected) process.disconnect();
    return;
  }
  pushTimer = setInterval(pushPlayers, PLAYER_PUSH_MS);
  send({ type: 'ready', host: server.host, port: server.port, version: server.version });
}

function pushPlayers(): void {
  if (!server) return;
  const players: Record<string, NonNullable<ReturnType<EmbeddedServer['player']>>> = {};
  for (const name of server.playerNames()) {
    const state = server.player(name);
    if (state) players[name] = state;
  }
  send({ type: 'players', players, timeOfDay: server.timeOfDay() });
}

async function call(id: number, method: string, args: unknown[]): Promise<void> {
  try {
    const target = server as unknown as Record<string, (...a: unknown[]) => unknown>;
    const value = await target[method]!.apply(server, args);
    pushPlayers();
    send({ type: 'result', id, value });
  } catch (error) {
    send({ type: 'result', id, error: error instanceof Error ? error.message : String(error) });
  }
}

async function stop(): Promise<void> {
  if (pushTimer) clearInterval(pushTimer);
  pushTimer = null;
  await server?.stop();
  server = null;
  send({ type: 'stopped' });
  if (process.connected) process.disconnect();
}

process.on('message', (message: ToChild) => {
  if (message.type === 'start') void start(message.options);
  else if (message.type === 'call') void call(message.id, message.method, message.args);
  else if (message.type === 'stop') void stop();
});
process.on('disconnect', () => {
  if (server) void stop();
});
