import { once } from 'node:events';
import type { Socket } from 'node:net';
import type { BlockState, DroppedItem, LivingEntity, ObservationQuery, Vec3Like } from '../../contracts/world.js';
import { batchWrites } from '../protocol/batched-writes.js';
import { splitWithoutStacks, type Splitter } from '../protocol/stackless-frames.js';
import { MINECRAFT_VERSION } from '../recipes.js';
import { Scenario as ScenarioSchema, type Scenario } from '../scenario/index.js';
import { FLAT_GENERATOR } from './flat-generator.js';
import { loadFlyingSquid } from './flying-squid.js';
import { activationPlugin } from './plugins/activation.js';
import { bedsPlugin } from './plugins/beds.js';
import { blockBroadcastsPlugin } from './plugins/block-broadcasts.js';
import { containersPlugin } from './plugins/containers.js';
import { craftingPlugin } from './plugins/crafting.js';
import { dropMetadataPlugin } from './plugins/drop-metadata.js';
import { drowningPlugin } from './plugins/drowning.js';
import { entityTeleportPlugin } from './plugins/entity-teleport.js';
import { entityTrackingPlugin } from './plugins/entity-tracking.js';
import { fanOutPlugin } from './plugins/fan-out.js';
import { foodPlugin } from './plugins/food.js';
import { hazardPlugin } from './plugins/hazard.js';
import { healthPlugin } from './plugins/health.js';
import { keepChunksPlugin } from './plugins/keep-chunks.js';
import { loginTakeoverPlugin } from './plugins/login-takeover.js';
import { loginTimersPlugin } from './plugins/login-timers.js';
import { mobsPlugin } from './plugins/mobs.js';
import { movementUpdatesPlugin } from './plugins/movement-updates.js';
import { physicsStepPlugin } from './plugins/physics-step.js';
import { playerEntityPlugin } from './plugins/player-entity.js';
import { promptLoginPlugin } from './plugins/prompt-login.js';
import { respawnPlugin } from './plugins/respawn.js';
import { applyScenarioBlocks, scenarioPlugin } from './plugins/scenario.js';
import { serverMarkPlugin } from './plugins/server-mark.js';
import { tabListPlugin } from './plugins/tab-list.js';
import { tossPlugin } from './plugins/toss.js';
import { unfinishedDigPlugin } from './plugins/unfinished-dig.js';
import { shutdown } from './server-shutdown.js';
import { FlyingSquidServer } from './squid-server.js';
import type { SquidServer } from './squid-types.js';
import { SURVIVAL_GENERATOR } from './survival-generator.js';
import { WorldStorage } from './world-folder.js';
import { zeroFillPackets } from './zeroed-packets.js';

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
  /** The items lying on the ground within `radius` of `around`, as the server holds them. */
  droppedItems(around: Vec3Like, radius: number): Promise<DroppedItem[]>;
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
  const settings = squidSettings(options, scenario, host, viewDistance);
  const serv = loadFlyingSquid().createMCServer(settings);
  // flying-squid's own plugins and each of verbtree's that acts on the game's tick listen to 'tick' (a dozen and
  // growing, one per feature): Node's default warning at 10 would be noise on stderr, not a leak.
  serv.setMaxListeners(50);
  zeroFillPackets((serv._server as unknown as { serializer: Parameters<typeof zeroFillPackets>[0] }).serializer);
  // Before any chunk loads (flying-squid's plugins made the world synchronously): chunks and players come from the folder.
  const storage = kept?.attach(serv, settings) ?? null;
  try {
    const port = await listening(serv, options.startTimeoutMs ?? 10_000);
    serv._server.on('connection', (client: { socket: Socket; splitter: Splitter }) => {
      batchWrites(client.socket);
      // The server reads each bot's packets with the same splitter, and its partial reads cost it as they cost a bot.
      splitWithoutStacks(client.splitter);
    });
    const { containers, drowning } = addGamePlugins(serv, { viewDistance, options, storage });
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
  }
}

/** flying-squid's settings for verbtree's world: offline, the scenario's terrain, room for a fleet. */
function squidSettings(options: EmbeddedServerOptions, scenario: Scenario, host: string, viewDistance: number) {
  return {
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
    // minecraft-protocol gives each connection a protocol of its own for plugin channels, and by default checks that
    // protocol's type definitions (constant ones) against JSON schemas compiled anew for each login: in the world
    // server's profile of 300 bots joining, 29 % of its busy time (about 135 ms a login). The packets are unchanged.
    validateChannelProtocol: false,
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
}

/** The port the server listens on, once it is listening and ready; an error or `timeoutMs` first fails the start. */
async function listening(serv: SquidServer, timeoutMs: number): Promise<number> {
  const failed = new Promise<never>((_, reject) => serv.once('error', reject));
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`embedded server did not start within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const [port] = (await Promise.race([once(serv, 'listening'), failed, timedOut])) as [number];
    await Promise.race([serv.waitForReady(timeoutMs), failed, timedOut]);
    return port;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * verbtree's plugins filling flying-squid's gaps (connections, the tab list, entities, the game's rules), in the order
 * they must hook in; the scenario's and the mobs' come after, once the blocks are laid out.
 */
function addGamePlugins(
  serv: SquidServer,
  {
    viewDistance,
    options,
    storage,
  }: { viewDistance: number; options: EmbeddedServerOptions; storage: WorldStorage | null },
) {
  serv.addPlugin('verbtree-login-timers', loginTimersPlugin);
  serv.addPlugin('verbtree-server-mark', serverMarkPlugin(storage?.savedUpTo ?? null));
  serv.addPlugin('verbtree-tab-list', tabListPlugin);
  serv.addPlugin('verbtree-player-entity', playerEntityPlugin);
  serv.addPlugin('verbtree-keep-chunks', keepChunksPlugin);
  serv.addPlugin('verbtree-entity-teleport', entityTeleportPlugin);
  serv.addPlugin('verbtree-fan-out', fanOutPlugin);
  serv.addPlugin('verbtree-block-broadcasts', blockBroadcastsPlugin);
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
  return { containers, drowning };
}
