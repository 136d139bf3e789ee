import { createRequire } from 'node:module';
import minecraftData from 'minecraft-data';
import type * as MinecraftProtocol from 'minecraft-protocol';
import { systemClock } from '../../clock/index.js';
import { WorldError } from '../../contracts/world.js';
import { batchWrites } from '../protocol/batched-writes.js';
import { splitFramesInPlace } from '../protocol/frames-in-place.js';
import type { Splitter } from '../protocol/stackless-frames.js';
import { MINECRAFT_VERSION } from '../recipes.js';
import { loadMineflayer } from './load-mineflayer.js';
import { MineflayerWorld, type MineflayerWorldOptions } from './mineflayer-world.js';
import { listenForServerMark } from './server-marks.js';
import { readCrowdMovesDirectly } from './crowd-moves.js';
import { restIdlePhysics } from './resting-physics.js';
import { updateTabLatencyDirectly } from './tab-latency.js';
import { shareBlockStates } from './shared-block-states.js';

/** How long login and spawn may take by default (ms). */
export const DEFAULT_CONNECT_TIMEOUT_MS = 15_000;

/**
 * The most physics ticks (50 ms of the body's time each) a bot's body runs in one turn of the event loop to catch up
 * with the wall clock. mineflayer's default, 4, keeps a body at the wall clock's pace only while the loop is at most
 * 200 ms late; a loaded worker's loop is later (0.8 to 1.5 s at its p99 in the fleet bench's crowd of 300), and its
 * walking bodies simulated 59 % of the wall time their walks took: every walk a plan asks for lasted longer, and every
 * bot a worker holds paid its idle cost over the longer plan phase (issue 34). mineflayer-pathfinder's rule that a path
 * reaching no node within 3.5 s of wall time is `stuck` reads the same wall clock. With 20 a body keeps pace with a
 * loop up to a second late, and the ticks owed beyond that are kept for the next turns (mineflayer drops none): the
 * bound keeps one turn's catch-up to a second of each body's time, so that an overloaded worker's turns stay bounded.
 */
export const PHYSICS_CATCH_UP_TICKS = 20;

export interface ConnectOptions extends MineflayerWorldOptions {
  host: string;
  port: number;
  username: string;
  /** Minecraft version; defaults to the embedded server's (1.21.4). */
  version?: string;
  /** How long login and spawn may take (ms). */
  connectTimeoutMs?: number;
  /** 'microsoft': mineflayer's own login, for online-mode servers (it asks the user to sign in). Default offline. */
  auth?: 'offline' | 'microsoft';
}

/** Connects a mineflayer bot (offline auth unless told) to any server and resolves once it has spawned. */
export function connectMineflayerWorld(options: ConnectOptions): Promise<MineflayerWorld> {
  const { mineflayer } = loadMineflayer();
  const target = `${options.host}:${options.port}`;
  const bot = mineflayer.createBot({
    host: options.host,
    port: options.port,
    username: options.username,
    version: options.version ?? MINECRAFT_VERSION,
    auth: options.auth ?? 'offline',
    hideErrors: true,
    logErrors: false,
    // A login checks its plugin channels' protocol (constant type definitions) against JSON schemas compiled anew:
    // work for nothing, paid by every bot of a fleet as it joins (and far more by the server: embedded-server.ts).
    validateChannelProtocol: false,
    maxCatchupTicks: PHYSICS_CATCH_UP_TICKS,
  });
  listenForServerMark(bot);
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
    const timeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
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
      shareBlockStates(bot);
      readCrowdMovesDirectly(bot);
      restIdlePhysics(bot);
      updateTabLatencyDirectly(bot);
      splitFramesInPlace((bot._client as unknown as { splitter: Splitter }).splitter);
      // The packets of one callback (a late body's ticks, each with its position) in one write.
      batchWrites(bot._client.socket, 'callback');
      resolve(new MineflayerWorld(bot, options));
    });
  });
}

/**
 * The Minecraft version a server speaks, as its status answer says: its protocol number, and the release of that
 * protocol whose name its version text holds (a Paper server says "Paper 1.21.4"), else the first release
 * minecraft-data lists for it. null when it does not answer within `timeoutMs` or minecraft-data does not know its
 * protocol.
 */
export async function serverVersion(
  host: string,
  port: number,
  timeoutMs = 5_000,
): Promise<{ version: string; protocol: number } | null> {
  // minecraft-protocol comes with mineflayer (its client); it is not a dependency of verbtree's own.
  const fromMineflayer = createRequire(createRequire(import.meta.url).resolve('mineflayer/package.json'));
  const { ping } = fromMineflayer('minecraft-protocol') as typeof MinecraftProtocol;
  const answer = await ping({ host, port, closeTimeout: timeoutMs, noPongTimeout: 500 }).catch(() => null);
  if (!answer || !('version' in answer) || typeof answer.version !== 'object') return null;
  const { name, protocol } = answer.version as { name?: unknown; protocol?: unknown };
  const known = minecraftData.postNettyVersionsByProtocolVersion.pc[Number(protocol)] as
    { minecraftVersion: string; releaseType?: string }[] | undefined;
  const releases = (known ?? []).filter((v) => v.releaseType === 'release');
  const named = releases.find((v) => typeof name === 'string' && name.includes(v.minecraftVersion));
  const version = (named ?? releases[0])?.minecraftVersion;
  return version ? { version, protocol: Number(protocol) } : null;
}

/** The protocol number of a Minecraft version; null for one minecraft-data does not know. */
export function protocolOf(version: string): number | null {
  return minecraftData(version)?.version.version ?? null;
}
