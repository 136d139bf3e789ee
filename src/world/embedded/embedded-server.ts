import { once } from 'node:events';
import type { Socket } from 'node:net';
import { Vec3 } from 'vec3';
import type { BlockState, LivingEntity, ObservationQuery, Vec3Like } from '../../contracts/world.js';
import { MINECRAFT_VERSION } from '../recipes.js';
import { Scenario as ScenarioSchema, type Scenario } from '../scenario/index.js';
import { batchWrites } from './batched-writes.js';
import { splitWithoutStacks } from '../protocol/stackless-frames.js';
import { FLAT_GENERATOR } from './flat-generator.js';
import { SURVIVAL_GENERATOR } from './survival-generator.js';
import { loadFlyingSquid } from './flying-squid.js';
import { containersPlugin, type ContainerStore } from './plugins/containers.js';
import { bedsPlugin } from './plugins/beds.js';
import { activationPlugin } from './plugins/activation.js';
import { blockStateOf } from './block-states.js';
import { craftingPlugin } from './plugins/crafting.js';
import { mobsPlugin, type LivingStore } from './plugins/mobs.js';
import { dropMetadataPlugin } from './plugins/drop-metadata.js';
import { entityTeleportPlugin } from './plugins/entity-teleport.js';
import { entityTrackingPlugin } from './plugins/entity-tracking.js';
import { movementUpdatesPlugin } from './plugins/movement-updates.js';
import { fanOutPlugin } from './plugins/fan-out.js';
import { foodPlugin } from './plugins/food.js';
import { hazardPlugin } from './plugins/hazard.js';
import { healthPlugin } from './plugins/health.js';
import { drowningPlugin, type AirStore } from './plugins/drowning.js';
import { tossPlugin } from './plugins/toss.js';
import { keepChunksPlugin } from './plugins/keep-chunks.js';
import { promptLoginPlugin } from './plugins/prompt-login.js';
import { loginTakeoverPlugin } from './plugins/login-takeover.js';
import { physicsStepPlugin } from './plugins/physics-step.js';
import { respawnPlugin } from './plugins/respawn.js';
import { unfinishedDigPlugin } from './plugins/unfinished-dig.js';
import { loginTimersPlugin } from './plugins/login-timers.js';
import { tabListPlugin } from './plugins/tab-list.js';
import { playerEntityPlugin } from './plugins/player-entity.js';
import { applyScenarioBlocks, scenarioPlugin } from './plugins/scenario.js';
import { serverMarkPlugin } from './plugins/server-mark.js';
import type { SquidPlayer, SquidServer } from './squid-types.js';
import { WorldStorage } from './world-folder.js';

export interface EmbeddedServerOptions {
  scenario?: Scenario;
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** Server log lines; silent by default. */
  log?: (line: string) => void;
  /** The server's view distance (chunks, 4 unless told): the chunks sent around a player, and how far it sees entities. */
  viewDistance?: number;
  /**
   * A cap on how far (blocks) a player is sent other entities, as Paper's entity-tracking-range; without it each type
   * has vanilla's range, capped by the view distance (64 blocks at the default view distance of 4).
   */
  entityTrackingRange?: number;
  /** How long start may take before it fails (ms). */
  startTimeoutMs?: number;
  /**
   * Keep the world in this folder (see prepareWorldFolder): saved every `saveEveryMs` (a second) and at stop,
   * reopened as it is. The scenario is laid out only in a fresh world; a reopened one keeps its blocks, players,
   * drops, containers and mobs (world-folder.ts). Without it the world lives in memory.
   */
  storage?: { folder: string; fresh: boolean; saveEveryMs?: number };
}

/** The server's view of one connected player: the truth acceptance checks against. */
export interface ServerPlayerState {
  position: Vec3Like;
  health: number;
  food: number;
  /** Ticks of air left (300 when full), as the drowning plugin holds it. */
  air: number;
  inventory: Record<string, number>;
}

export interface EmbeddedServer {
  readonly host: string;
  readonly port: number;
  readonly version: string;
  readonly scenario: Scenario;
  /** The block name the server holds at a position (not any client's prediction). */
  blockAt(position: Vec3Like): Promise<string>;
  /** The block with the state using it changes (open, powered), as the server holds it. */
  blockStateAt(position: Vec3Like): Promise<BlockState>;
  setBlock(position: Vec3Like, blockName: string): Promise<void>;
  /** What the chest or furnace at a position holds (item counts); null when none stands there. */
  containerAt(position: Vec3Like): Promise<Record<string, number> | null>;
  /** The mobs and players a query asks for, as the server holds them (a dead mob is gone). */
  livingEntities(query: NonNullable<ObservationQuery['entities']>, at: Vec3Like): Promise<LivingEntity[]>;
  /** Null when no player of that name is connected. */
  player(username: string): ServerPlayerState | null;
  playerNames(): string[];
  setTimeOfDay(ticks: number): void;
  /** The time of day in ticks, as the server holds it. */
  timeOfDay(): number;
  /** Sets a player's health on the server (0 kills it; the client then respawns); false when no such player. */
  setHealth(username: string, health: number): boolean;
  setFood(username: string, food: number): boolean;
  /** Disconnects a player from the server side; false when no such player is connected. */
  kick(username: string, reason?: string): boolean;
  /** Kicks every player, closes the socket and stops every timer; idempotent. */
  stop(): Promise<void>;
}

/** The server in this process, which can also die as a SIGKILL would kill it. */
export interface InProcessEmbeddedServer extends EmbeddedServer {
  /**
   * Dies as a SIGKILLed server process: every socket dropped at once, no goodbye to the players, and nothing more
   * written to its folder than its periodic saves already wrote (`WorldStorage.crash`). A new server can then start
   * from the same folder in this process, as a restarted one would, without two process starts.
   */
  crash(): Promise<void>;
}

const CLOSE_GRACE_MS = 1000;
const DEFAULT_VIEW_DISTANCE = 4;
const MAX_PLAYERS = 200;

/**
 * A connection whose stream failed (a packet the server could not serialize,
 * a malformed one from the client) is dropped at once, so its bot sees a
 * disconnect. minecraft-protocol's default instead ends it through the broken
 * stream: nothing reaches the bot any more, yet its socket stays open for 30 s
 * and every command it sends meanwhile waits for an answer that never comes.
 */
function droppingHandler(log: ((line: string) => void) | undefined) {
  return (client: { username?: string; socket?: { destroy(): void } }, error: Error) => {
    log?.(`[ERROR] dropping the connection of ${client.username ?? 'a client'}: ${error.message}`);
    client.socket?.destroy();
  };
}

/** Starts flying-squid (superflat, offline mode) in this process with verbtree's plugins and the scenario applied. */
export async function startEmbeddedServer(options: EmbeddedServerOptions = {}): Promise<InProcessEmbeddedServer> {
  const scenario = options.scenario ?? ScenarioSchema.parse({ name: 'empty' });
  const host = options.host ?? '127.0.0.1';
  const kept = options.storage ? WorldStorage.read(options.storage.folder, options.storage.fresh) : null;
  const viewDistance = options.viewDistance ?? DEFAULT_VIEW_DISTANCE;
  const settings = {
    'online-mode': false,
    host,
    port: options.port ?? 0,
    version: MINECRAFT_VERSION,
    logging: false,
    noConsoleOutput: true,
    verbtreeLog: options.log,
    generation:
      scenario.terrain.kind === 'survival'
        ? { name: SURVIVAL_GENERATOR, options: { terrainSeed: scenario.terrain.seed } }
        : { name: FLAT_GENERATOR, options: {} },
    'view-distance': viewDistance,
    'max-players': MAX_PLAYERS,
    gameMode: 0,
    difficulty: 1,
    kickTimeout: 10_000,
    plugins: {},
    modpe: false,
    'everybody-op': true,
    // flying-squid counts players as entities and refuses to create one past
    // this limit (a join or a dropped item then throws): room for every player
    // and the drops of a busy fleet.
    'max-entities': MAX_PLAYERS * 5,
    hideErrors: true,
    errorHandler: droppingHandler(options.log),
    // Without these flying-squid's header plugin crashes on every join.
    'player-list-text': { header: { text: '' }, footer: { text: '' } },
    motd: 'verbtree embedded world',
  };
  const serv = loadFlyingSquid().createMCServer(settings);
  // flying-squid's own plugins and each of verbtree's that acts on the game's tick listen to 'tick' (a dozen and
  // growing, one per feature): Node's default warning at 10 would be noise on stderr, not a leak.
  serv.setMaxListeners(50);
  // Before any chunk loads (flying-squid's plugins made the world synchronously): chunks and players come from the folder.
  const storage = kept?.attach(serv, settings) ?? null;
  const timeoutMs = options.startTimeoutMs ?? 10_000;
  const failed = new Promise<never>((_, reject) => serv.once('error', reject));
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`embedded server did not start within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const [port] = (await Promise.race([once(serv, 'listening'), failed, timedOut])) as [number];
    await Promise.race([serv.waitForReady(timeoutMs), failed, timedOut]);
    serv._server.on('connection', (client: { socket: Socket; splitter: Parameters<typeof splitWithoutStacks>[0] }) => {
      batchWrites(client.socket);
      // The server reads each bot's packets with the same splitter, and its partial reads cost it as they cost a bot.
      splitWithoutStacks(client.splitter);
    });
    serv.addPlugin('verbtree-login-timers', loginTimersPlugin);
    serv.addPlugin('verbtree-server-mark', serverMarkPlugin(storage?.savedUpTo ?? null));
    serv.addPlugin('verbtree-tab-list', tabListPlugin);
    serv.addPlugin('verbtree-player-entity', playerEntityPlugin);
    serv.addPlugin('verbtree-keep-chunks', keepChunksPlugin);
    serv.addPlugin('verbtree-entity-teleport', entityTeleportPlugin);
    serv.addPlugin('verbtree-fan-out', fanOutPlugin);
    serv.addPlugin('verbtree-physics-step', physicsStepPlugin);
    serv.addPlugin('verbtree-prompt-login', promptLoginPlugin);
    serv.addPlugin('verbtree-login-takeover', loginTakeoverPlugin());
    serv.addPlugin(
      'verbtree-entity-tracking',
      entityTrackingPlugin({ viewDistance, maxRange: options.entityTrackingRange }),
    );
    serv.addPlugin('verbtree-movement-updates', movementUpdatesPlugin());
    serv.addPlugin('verbtree-toss', tossPlugin);
    serv.addPlugin('verbtree-unfinished-dig', unfinishedDigPlugin);
    serv.addPlugin('verbtree-drop-metadata', dropMetadataPlugin);
    serv.addPlugin('verbtree-crafting', craftingPlugin());
    // After crafting: its click handler replaces flying-squid's, the containers' is added beside it.
    const containers = containersPlugin();
    serv.addPlugin('verbtree-containers', containers);
    serv.addPlugin('verbtree-beds', bedsPlugin());
    serv.addPlugin('verbtree-activation', activationPlugin());
    serv.addPlugin('verbtree-food', foodPlugin());
    serv.addPlugin('verbtree-health', healthPlugin());
    serv.addPlugin('verbtree-hazard', hazardPlugin());
    const drowning = drowningPlugin();
    serv.addPlugin('verbtree-drowning', drowning);
    serv.addPlugin('verbtree-respawn', respawnPlugin());
    const layOut = options.storage?.fresh !== false;
    serv.addPlugin(
      'verbtree-scenario',
      scenarioPlugin(scenario, { isNewPlayer: (player) => !storage?.players.isKnown(player) }),
    );
    if (layOut) await applyScenarioBlocks(serv, scenario);
    // After the blocks, so a mob stands on the ground laid out for it.
    const mobs = mobsPlugin(scenario, { layOut });
    serv.addPlugin('verbtree-mobs', mobs);
    if (storage) {
      serv.addPlugin('verbtree-storage', storage.plugin);
      await storage.start(
        { containers: containers.store, mobs: mobs.store },
        layOut ? { scenario: scenario.name } : null,
        options.storage?.saveEveryMs,
      );
    }
    return new FlyingSquidServer(serv, host, port, scenario, storage, containers.store, mobs.store, drowning.air);
  } catch (error) {
    storage?.abandon();
    await shutdown(serv, null);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

class FlyingSquidServer implements InProcessEmbeddedServer {
  readonly version = MINECRAFT_VERSION;
  private stopping: Promise<void> | null = null;

  constructor(
    private readonly serv: SquidServer,
    readonly host: string,
    readonly port: number,
    readonly scenario: Scenario,
    private readonly storage: WorldStorage | null,
    private readonly containers: ContainerStore,
    private readonly mobs: LivingStore,
    private readonly air: AirStore,
  ) {}

  async blockAt(position: Vec3Like): Promise<string> {
    const stateId = await this.serv.overworld.getBlockStateId(toVec3(position));
    return this.serv.registry.blocksByStateId[stateId]?.name ?? 'unknown';
  }

  async blockStateAt(position: Vec3Like): Promise<BlockState> {
    return blockStateOf(this.serv.registry, await this.serv.overworld.getBlockStateId(toVec3(position)));
  }

  async setBlock(position: Vec3Like, blockName: string): Promise<void> {
    const block = this.serv.registry.blocksByName[blockName];
    if (!block)
      throw new Error(
        `"${blockName}" is not a block in ${this.version}; use a minecraft-data block name such as "stone"`,
      );
    await this.serv.setBlock(this.serv.overworld, toVec3(position), block.defaultState);
  }

  containerAt(position: Vec3Like): Promise<Record<string, number> | null> {
    return this.containers.contentsAt(position);
  }

  livingEntities(query: NonNullable<ObservationQuery['entities']>, at: Vec3Like): Promise<LivingEntity[]> {
    return Promise.resolve(this.mobs.living(query, at));
  }

  player(username: string): ServerPlayerState | null {
    const player = this.serv.players.find((p) => p.username === username);
    if (!player) return null;
    const { x, y, z } = player.position;
    return {
      position: { x, y, z },
      health: player.health,
      food: player.food,
      air: this.air.of(player),
      inventory: inventoryOf(player),
    };
  }

  playerNames(): string[] {
    return this.serv.players.map((p) => p.username);
  }

  setTimeOfDay(ticks: number): void {
    this.serv.setTime(ticks);
  }

  timeOfDay(): number {
    return Number(this.serv.time) % 24_000;
  }

  setHealth(username: string, health: number): boolean {
    const player = this.findPlayer(username);
    player?.updateHealth(Math.max(0, Math.min(20, health)));
    return player !== undefined;
  }

  setFood(username: string, food: number): boolean {
    const player = this.findPlayer(username);
    player?.updateFood(Math.max(0, Math.min(20, Math.round(food))));
    return player !== undefined;
  }

  private findPlayer(username: string): SquidPlayer | undefined {
    return this.serv.players.find((p) => p.username === username);
  }

  kick(username: string, reason = 'Kicked by verbtree'): boolean {
    const player = this.serv.players.find((p) => p.username === username);
    if (!player) return false;
    player.kick(reason);
    return true;
  }

  stop(): Promise<void> {
    this.stopping ??= shutdown(this.serv, this.storage);
    return this.stopping;
  }

  crash(): Promise<void> {
    this.stopping ??= die(this.serv, this.storage);
    return this.stopping;
  }
}

function inventoryOf(player: SquidPlayer): Record<string, number> {
  const counts: Record<string, number> = {};
  for (let slot = 9; slot <= 45; slot++) {
    const item = player.inventory.slots[slot];
    if (item) counts[item.name] = (counts[item.name] ?? 0) + item.count;
  }
  return counts;
}

/**
 * flying-squid's own `destroy()` leaves the tick interval running, makes later
 * writes throw, and rejects when a socket lingers; this ends each piece itself.
 */
async function shutdown(serv: SquidServer, storage: WorldStorage | null): Promise<void> {
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
async function die(serv: SquidServer, storage: WorldStorage | null): Promise<void> {
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

function toVec3(position: Vec3Like): Vec3 {
  return new Vec3(Math.floor(position.x), Math.floor(position.y), Math.floor(position.z));
}
