import type { Bot } from 'mineflayer';
import type { Block } from 'prismarine-block';
import type { Vec3 } from 'vec3';

/** The part of a loaded chunk column the lookup reads (prismarine-chunk's, in chunk-local coordinates). */
interface Column {
  getBlockStateId(local: Vec3): number;
  getBiome(local: Vec3): number;
  getBlockLight(local: Vec3): number;
  getSkyLight(local: Vec3): number;
  getBlockEntity(local: Vec3): Block['entity'];
  /** prismarine-chunk's block entities of the column, by position: most columns hold none. */
  blockEntities?: Record<string, unknown>;
}

const SHARED = Symbol.for('verbtree.sharedBlockStates');

/**
 * The shared Blocks of each Minecraft version, one set for every bot of the process. A bot's lookups answer objects
 * made over these Blocks (`Object.create`), and V8 gives each prototype object maps of its own: shared per bot, a
 * worker holding n bots had n times the prototypes, and every property read and write on a looked-up block went
 * megamorphic over them. In-process, 3 million lookups over 500 prototypes (50 bots' worth) took 1.5 µs each, over
 * 1,500 (150 bots) 4.0 µs, over 10 prototypes 0.3 µs: the cost of each of a bot's lookups grew with the bots held.
 * A Block is the same for every bot of a version: prismarine-block builds it from minecraft-data's static tables and
 * the two ids alone (its biome is looked up by id in the version's data, never in what a server sent), so each state
 * and biome has one Block in the process, built the first time by some bot's own lookup.
 */
const sharedByVersion = new Map<string, Map<number, Block>>();

function sharedBlocksOf(bot: Bot): Map<number, Block> {
  const { type, minecraftVersion } = bot.registry.version;
  const version = `${type} ${minecraftVersion}`;
  let shared = sharedByVersion.get(version);
  if (shared === undefined) {
    shared = new Map();
    sharedByVersion.set(version, shared);
  }
  return shared;
}

/**
 * Physics and the pathfinder ask `bot.blockAt(pos, false)` for every block around every bot on every tick, and each
 * answer was a new prismarine-block Block built from its state id: its properties decoded, its biome object made, its
 * hash computed. In a CPU profile of a worker holding 50 bots (`npm run bench -- fleet --bots 50 --workers 1 --profile
 * …`) that was 8 % of the worker's CPU, and a good part of its garbage. Every block of one state and biome is the same
 * but for where it is, its light and its block entity: this answers those calls with an object of its own for those
 * (and for whatever its caller writes on it, as the pathfinder does) over one shared Block per state and biome (and
 * version, for all the bots of the process: see `sharedByVersion`), built the first time by mineflayer's own lookup. The state is read from the live chunk on every call, so nothing is
 * cached but what a state id means.
 *
 * A call with extra infos (the default, as mineflayer's physics tick asks once a tick a bot) adds the painting
 * mineflayer knows at that block, and it knows only those of `spawn_entity_painting` packets: a version whose protocol
 * has none (1.19 on: paintings are entities) never has one, and those calls share too. Other versions keep mineflayer's
 * own lookup for them.
 */
export function shareBlockStates(bot: Bot): void {
  const original = bot.blockAt.bind(bot) as Bot['blockAt'] & { [SHARED]?: true };
  if (original[SHARED]) return;
  const shared = sharedBlocksOf(bot);
  const paintings = paintingsAnnounced(bot);
  const lookup = ((at: Vec3, extraInfos = true) => {
    if (extraInfos && paintings) return original(at, extraInfos);
    const column = (bot.world as unknown as { getColumnAt(at: Vec3): Column | null }).getColumnAt(at);
    if (!column) return null;
    const position = at.floored();
    const local = position.clone();
    local.x &= 15;
    local.z &= 15;
    const stateId = column.getBlockStateId(local);
    const biome = column.getBiome(local);
    const key = stateId * 65_536 + biome;
    let state = shared.get(key);
    if (state === undefined) {
      state = original(position, false)!;
      shared.set(key, state);
    }
    const block = Object.create(state) as Block;
    block.position = position;
    block.light = column.getBlockLight(local);
    block.skyLight = column.getSkyLight(local);
    // None is undefined, as prismarine-chunk answers it (its typing says null).
    block.entity = (anyBlockEntity(column) ? column.getBlockEntity(local) : undefined) as Block['entity'];
    if (extraInfos) (block as Block & { painting?: unknown }).painting = undefined;
    return block;
  }) as Bot['blockAt'] & { [SHARED]?: true };
  lookup[SHARED] = true;
  bot.blockAt = lookup;
}

/**
 * Whether a column holds any block entity. Asking the column for one at a position builds the position's key string,
 * on every lookup of every bot (1.9 % of a 150-bot dense worker's busy time, self, with its garbage); most columns
 * (grass, stone, air) hold none. A column that does not say is asked.
 */
function anyBlockEntity(column: Column): boolean {
  if (column.blockEntities === undefined) return true;
  for (const _ in column.blockEntities) return true;
  return false;
}

/** Whether the bot's protocol announces paintings by a packet of their own, which mineflayer adds to its blocks. */
export function paintingsAnnounced(bot: Bot): boolean {
  const types = (bot.registry as { protocol?: { play?: { toClient?: { types?: object } } } } | undefined)?.protocol
    ?.play?.toClient?.types;
  // Not knowing the protocol, keep mineflayer's lookup.
  return types === undefined || 'packet_spawn_entity_painting' in types;
}

/** The part of prismarine-world's WorldSync a block change goes through. */
interface SyncWorld {
  getColumnAt(at: Vec3): { setBlockStateId(local: Vec3, stateId: number): void } | null;
  async: { saveAt(at: Vec3): void };
  emit(event: string, ...args: unknown[]): boolean;
}

/**
 * What prismarine-world's `setBlockStateId` does (set the state, save, emit 'blockUpdate' and 'blockUpdate:<pos>' with
 * the block before and after), with the two Blocks taken from the bot's `blockAt` without extra infos, which
 * `shareBlockStates` answers over shared states, where prismarine-world's builds two whole Blocks from the chunk. In a
 * crowd every bot's world takes every place and dig of the crowd: n changes a bot per plan, 600 at 300 bots, and those
 * Blocks were half of their cost in a worker's profile.
 */
export function setBlockStateShared(bot: Bot, at: Vec3, stateId: number): void {
  const world = bot.world as unknown as SyncWorld;
  const column = world.getColumnAt(at);
  if (!column) return;
  const local = at.floored();
  local.x &= 15;
  local.z &= 15;
  const before = bot.blockAt(at, false)!;
  column.setBlockStateId(local, stateId);
  world.async.saveAt(at);
  const after = bot.blockAt(at, false)!;
  after.position = before.position;
  world.emit('blockUpdate', before, after);
  world.emit(`blockUpdate:${at.toString()}`, before, after);
}
