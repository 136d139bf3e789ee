import { systemClock } from '../../clock/index.js';
import { WorldError } from '../../contracts/world.js';
import { MINECRAFT_VERSION } from '../recipes.js';
import { loadMineflayer } from './load-mineflayer.js';
import { MineflayerWorld, type MineflayerWorldOptions } from './mineflayer-world.js';

export interface ConnectOptions extends MineflayerWorldOptions {
  host: string;
  port: number;
  username: string;
  /** Minecraft version; defaults to the embedded server's (1.21.4). */
  version?: string;
  /** How long login and spawn may take (ms). */
  connectTimeoutMs?: number;
}

/** Connects a mineflayer bot (offline auth) to any server and resolves once it has spawned. */
export function connectMineflayerWorld(options: ConnectOptions): Promise<MineflayerWorld> {
  const { mineflayer } = loadMineflayer();
  const target = `${options.host}:${options.port}`;
  const bot = mineflayer.createBot({
    host: options.host,
    port: options.port,
    username: options.username,
    version: options.version ?? MINECRAFT_VERSION,
    auth: 'offline',
    hideErrors: true,
    logErrors: false,
  });
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      cleanup();
      bot.end();
      reject(new WorldError('world_disconnected', `could not join ${target} as ${options.username}: ${why}`));
    };
    const onError = (error: Error) => fail(error.message);
    const onEnd = (reason: string) => fail(`connection ended (${reason})`);
    const onKicked = (reason: unknown) =>
      fail(`kicked (${typeof reason === 'string' ? reason : JSON.stringify(reason)})`);
    const clock = options.clock ?? systemClock;
    const timeoutMs = options.connectTimeoutMs ?? 15_000;
    const timer = clock.setTimeout(() => fail(`no spawn within ${timeoutMs} ms`), timeoutMs);
    const cleanup = () => {
      clock.clearTimeout(timer);
      bot.removeListener('error', onError);
      bot.removeListener('end', onEnd);
      bot.removeListener('kicked', onKicked);
    };
    bot.once('error', onError);
    bot.once('end', onEnd);
    bot.once('kicked', onKicked);
    bot.once('spawn', () => {
      cleanup();
      // Later socket errors surface as 'end' (a disconnect), not as a crash.
      bot.on('error', () => {});
      resolve(new MineflayerWorld(bot, options));
    });
  });
}
