import { once } from 'node:events';
import type { SquidServer } from './squid-types.js';
import type { WorldStorage } from './world-folder.js';

/** How long the listening socket may wait for its clients to close before they are destroyed (ms). */
const CLOSE_GRACE_MS = 1000;

/**
 * flying-squid's own `destroy()` leaves the tick interval running, makes later
 * writes throw, and rejects when a socket lingers; this ends each piece itself.
 */
export async function shutdown(serv: SquidServer, storage: WorldStorage | null): Promise<void> {
  serv.stopTickInterval();
  await storage?.stop();
  clearPlayerTimers(serv);
  const server = socketsOf(serv);
  const clients = Object.values(server.clients);
  for (const client of clients) {
    try {
      client.end('Server stopping');
    } catch {
      client.socket?.destroy();
    }
  }
  if (!server.socketServer?.listening) {
    for (const client of clients) client.socket?.destroy();
    return;
  }
  const closed = once(server, 'close');
  server.socketServer.close();
  let grace: NodeJS.Timeout | undefined;
  const forced = new Promise<void>((resolve) => {
    grace = setTimeout(() => {
      for (const client of Object.values(server.clients)) client.socket?.destroy();
      resolve();
    }, CLOSE_GRACE_MS);
  });
  await Promise.race([closed, forced]);
  clearTimeout(grace);
  await closed;
  for (const client of clients) clearTimeout((client as unknown as { closeTimer?: NodeJS.Timeout }).closeTimer);
}

/**
 * A SIGKILL's end, in this process: the game stops in the turn it is killed (no tick, no save from now on), every
 * socket is destroyed without a word to its client and the listening socket closed. A save already under way goes
 * on to its end, as if the kill came just after it: it holds the world as it was captured, before the kill.
 */
export async function die(serv: SquidServer, storage: WorldStorage | null): Promise<void> {
  serv.stopTickInterval();
  const saved = storage?.crash();
  clearPlayerTimers(serv);
  const server = socketsOf(serv);
  const clients = Object.values(server.clients);
  for (const client of clients) client.socket?.destroy();
  if (server.socketServer?.listening) {
    const closed = once(server, 'close');
    server.socketServer.close();
    await closed;
  }
  for (const client of clients) clearTimeout((client as unknown as { closeTimer?: NodeJS.Timeout }).closeTimer);
  await saved;
}

function clearPlayerTimers(serv: SquidServer): void {
  for (const player of serv.players) {
    (player.verbtreeClearTimers as (() => void) | undefined)?.();
    (player.verbtreeCancelDig as (() => void) | undefined)?.();
  }
}

function socketsOf(serv: SquidServer) {
  return serv._server as SquidServer['_server'] & { socketServer?: { listening?: boolean; close(): void } };
}
