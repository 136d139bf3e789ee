import type { Clock } from '../../contracts/clock.js';
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
  const server = options.isolation === 'child-process' ? await startEmbeddedServerInChild(options) : await startEmbeddedServer(options);
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
      return world;
    },
    async stop() {
      await Promise.all(bots.map((bot) => bot.close()));
      await server.stop();
    },
  };
}
