import type { Clock } from '../../contracts/clock.js';
import { systemClock } from '../../clock/index.js';
import { WorldError } from '../../contracts/world.js';
import { connectMineflayerWorld } from '../mineflayer/connect.js';
import type { MineflayerWorld, MineflayerWorldOptions } from '../mineflayer/mineflayer-world.js';
import { startEmbeddedServerInChild } from './child-server.js';
import { startEmbeddedServer, type EmbeddedServer, type EmbeddedServerOptions } from './embedded-server.js';

export interface EmbeddedWorldOptions extends EmbeddedServerOptions {
  clock?: Clock;
  /** 'child-process' runs the server in a forked process so a server crash only disconnects the bots. */
  isolation?: 'in-process' | 'child-process';
}

/** An embedded server and the bots connected to it; `stop()` leaves no socket, timer or listener behind. */
export interface EmbeddedWorld {
  readonly server: EmbeddedServer;
  readonly bots: readonly MineflayerWorld[];
  /** Connects a bot that reads the server's truth in observe(). */
  connectBot(username?: string, options?: MineflayerWorldOptions): Promise<MineflayerWorld>;
  stop(): Promise<void>;
}

export async function startEmbeddedWorld(options: EmbeddedWorldOptions = {}): Promise<EmbeddedWorld> {
  const server =
    options.isolation === 'child-process'
      ? await startEmbeddedServerInChild(options)
      : await startEmbeddedServer(options);
  const bots: MineflayerWorld[] = [];
  let count = 0;
  return {
    server,
    bots,
    async connectBot(username = `bot${++count}`, botOptions = {}) {
      const world = await connectMineflayerWorld({
        host: server.host,
        port: server.port,
        username,
        version: server.version,
        serverTruth: server,
        ...(options.clock ? { clock: options.clock } : {}),
        ...botOptions,
      });
      bots.push(world);
      await knownToServer(server, username, options.clock ?? systemClock);
      return world;
    },
    async stop() {
      await Promise.all(bots.map((bot) => bot.close()));
      await server.stop();
    },
  };
}

const KNOWN_POLL_MS = 10;
const KNOWN_TIMEOUT_MS = 5000;

/**
 * A server in a child process reports its players every 50 ms, so a bot may
 * spawn before the server's truth knows it; observations and confirmations
 * made meanwhile would have only the client's word. The bot is handed out
 * once the server's truth lists it.
 */
async function knownToServer(server: EmbeddedServer, username: string, clock: Clock): Promise<void> {
  const deadline = clock.now() + KNOWN_TIMEOUT_MS;
  while (server.player(username) === null) {
    if (clock.now() >= deadline)
      throw new WorldError(
        'world_unresponsive',
        `the embedded server did not list ${username} within ${KNOWN_TIMEOUT_MS} ms of its spawn`,
      );
    await new Promise<void>((resolve) => clock.setTimeout(() => resolve(), KNOWN_POLL_MS));
  }
}
