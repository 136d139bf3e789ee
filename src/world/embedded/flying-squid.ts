import Module, { createRequire } from 'node:module';
import path from 'node:path';
import type { Vec3 } from 'vec3';
import { MissingPackageError } from '../../missing-package.js';
import { FLAT_GENERATOR, flatGenerator } from './flat-generator.js';
import { SURVIVAL_GENERATOR, survivalGenerator } from './survival-generator.js';
import type { SquidModule, SquidPlayer, SquidServer } from './squid-types.js';

const require = createRequire(import.meta.url);

/**
 * Loads flying-squid without the process-wide side effects it has when loaded
 * plainly: its log plugin opens a readline on stdin and installs an exit hook
 * (SIGINT/SIGTERM handlers) at require time, and its error-handler plugin makes
 * every joining player install an `uncaughtException` handler that calls
 * `process.exit()`. Both plugin modules are replaced in the require cache before
 * flying-squid's plugin index requires them; everything else is the real server.
 */
let loaded: SquidModule | null = null;

export function loadFlyingSquid(): SquidModule {
  if (loaded) return loaded;
  let pluginsDir: string;
  try {
    pluginsDir = path.dirname(require.resolve('flying-squid/src/lib/plugins/index.js'));
  } catch {
    // Not installed: a SimWorld-only planner may leave it out; the embedded world says what to add.
    throw new MissingPackageError('flying-squid', 'the embedded world (a Minecraft server in this process)');
  }
  preloadModule(path.join(pluginsDir, 'log.js'), { server: quietLogPlugin, player: playerLogPlugin });
  preloadModule(path.join(pluginsDir, 'errorHandler.js'), {});
  loaded = require('flying-squid') as SquidModule;
  readPlayersThroughVerbtree(path.join(path.dirname(pluginsDir), 'playerDat.js'));
  loaded.generations[FLAT_GENERATOR] = flatGenerator;
  loaded.generations[SURVIVAL_GENERATOR] = survivalGenerator;
  return loaded;
}

type PlayerRead = (uuid: string, spawnPoint: Vec3, worldFolder?: string) => Promise<unknown>;

/** How each world kept by verbtree reads its players, by the `worldFolder` flying-squid's login passes. */
const playerReaders = new Map<string, (uuid: string, spawnPoint: Vec3) => unknown>();

/**
 * Lets a kept world (world-folder.ts) answer flying-squid's login when it reads
 * a player from the world folder: the player comes back from the world's save
 * point, whole, instead of from a player file written apart from it. Returns
 * the function that stops it.
 */
export function registerPlayerReader(
  worldFolder: string,
  read: (uuid: string, spawnPoint: Vec3) => unknown,
): () => void {
  playerReaders.set(worldFolder, read);
  return () => {
    if (playerReaders.get(worldFolder) === read) playerReaders.delete(worldFolder);
  };
}

function readPlayersThroughVerbtree(filename: string): void {
  const playerDat = require(filename) as { read: PlayerRead };
  const read = playerDat.read;
  playerDat.read = (uuid, spawnPoint, worldFolder) => {
    const reader = worldFolder === undefined ? undefined : playerReaders.get(worldFolder);
    return reader ? Promise.resolve(reader(uuid, spawnPoint)) : read(uuid, spawnPoint, worldFolder);
  };
}

function preloadModule(filename: string, exports: object): void {
  const existing = require.cache[filename];
  if (existing) {
    if ((existing.exports as { verbtreeStub?: boolean }).verbtreeStub !== true) {
      throw new Error(
        `flying-squid's ${path.basename(filename)} was loaded before verbtree could replace it; import flying-squid only through loadFlyingSquid()`,
      );
    }
    return;
  }
  const stub = new Module(filename);
  stub.filename = filename;
  stub.loaded = true;
  stub.exports = { ...exports, verbtreeStub: true };
  require.cache[filename] = stub;
}

export interface SquidLogSettings {
  /** Where server log lines go; silent when absent. */
  verbtreeLog?: (line: string) => void;
}

/** Stands in for flying-squid's log.js: the same `serv.log/info/warn/err` API, no stdin, no exit hook. */
function quietLogPlugin(serv: SquidServer, settings: SquidLogSettings): void {
  const sink = settings.verbtreeLog ?? (() => {});
  serv.log = (message: string) => sink(message);
  serv.info = (message: string) => sink(`[INFO] ${message}`);
  serv.warn = (message: string) => sink(`[WARN] ${message}`);
  serv.err = (message: string) => sink(`[ERROR] ${message}`);
  serv.createLog = () => {};
  serv.on('error', (error: unknown) => serv.err(`Server: ${error instanceof Error ? error.stack : String(error)}`));
}

/**
 * Who joins and leaves, as flying-squid's log.js says it, for whoever reads the log of a shared world (`verbtree
 * world`). It listens to the connection's end, not the player's 'disconnected', which verbtree's plugins crowd.
 */
function playerLogPlugin(player: SquidPlayer, serv: SquidServer): void {
  player.once('spawned', () => {
    const from = (player._client.socket as { remoteAddress?: string } | undefined)?.remoteAddress;
    serv.info(`${player.username} joined${from ? ` from ${from}` : ''} (${serv.players.length} online)`);
  });
  player._client.once('end', () => serv.info(`${player.username} left`));
}
