import type { Bot } from 'mineflayer';
import type { Entity } from 'prismarine-entity';
import { setsLatencyAlone, type PlayerInfo } from '../protocol/player-info.js';

/*
 * The server sends every player the latency of every player in one player_info update (vanilla every 30 s). For each
 * entry, mineflayer's player_info handler looks the entry's player up among all of the bot's entities
 * (`Object.values(bot.entities).find(...)`): in a crowd, where every bot sees every other, one update costs a bot n²
 * entity checks, and the bots of a worker n³ between them, though only the entries' pings change. An update that
 * sets latencies alone is done here as mineflayer's handler does it (the same fields set, the same player entity
 * found, the same 'playerUpdated' events), with the players' entities indexed once per update. Anything else (another
 * action, a display name, a listener of 'playerUpdated' that could change the entities between two entries) goes to
 * mineflayer's handler untouched.
 */

interface TabPlayer {
  uuid?: string;
  username?: string;
  ping?: number;
  entity?: Entity;
}

type Handler = (packet: PlayerInfo) => void;

const FAST = Symbol.for('verbtree.tabLatency');

/** The code of the warning given once per process when mineflayer's player_info handler is not found. */
export const HANDLER_MISSED = 'VERBTREE_TAB_LATENCY_HANDLER_MISSED';
let missWarned = false;

/**
 * Replaces mineflayer's player_info handler of `bot` with one that does latency updates in linear time; once. Whether
 * the handler is in place: mineflayer's is known only by its source text (it reads `uuidToUsername`), and a mineflayer
 * whose handler no longer reads so keeps its own, unchanged and slower, with a process warning (once) saying so.
 */
export function updateTabLatencyDirectly(bot: Bot): boolean {
  const client = bot._client as unknown as NodeJS.EventEmitter & { [FAST]?: true };
  if (client[FAST]) return true;
  const listeners = client.listeners('player_info') as Handler[];
  const mineflayers = listeners.findIndex((listener) => listener.toString().includes('uuidToUsername'));
  if (mineflayers < 0) {
    warnMissedOnce();
    return false;
  }
  const original = listeners[mineflayers]!;
  const handler: Handler = (packet) => {
    if (!latencyOnly(packet) || bot.listenerCount('playerUpdated') > 0) return original(packet);
    updateLatencies(bot, packet);
  };
  // In place, so that the listeners still hear each packet in the order they were added.
  client.removeAllListeners('player_info');
  for (const [i, listener] of listeners.entries()) client.on('player_info', i === mineflayers ? handler : listener);
  client[FAST] = true;
  return true;
}

function warnMissedOnce(): void {
  if (missWarned) return;
  missWarned = true;
  process.emitWarning(
    "mineflayer's player_info handler was not found (none reads uuidToUsername): tab-list latency updates go " +
      "through mineflayer's own, n² entity checks per update in a crowd; src/world/mineflayer/tab-latency.ts " +
      'needs updating for this mineflayer',
    { code: HANDLER_MISSED },
  );
}

/**
 * An update of latencies alone in the shape with flags (1.19.3 on), the one whose handling in mineflayer's handler
 * updateLatencies repeats: the only fields that handler sets are the pings.
 */
function latencyOnly(packet: PlayerInfo): boolean {
  return typeof packet.action === 'object' && setsLatencyAlone(packet);
}

/** What mineflayer's handler (lib/plugins/entities.js, player_info with flags) does with a latency-only update. */
function updateLatencies(bot: Bot, packet: PlayerInfo): void {
  const players = bot.players as unknown as Record<string, TabPlayer>;
  const uuidToUsername = (bot as unknown as { uuidToUsername: Record<string, string> }).uuidToUsername;
  let entities: Map<string | undefined, Entity> | undefined;
  for (const entry of packet.data) {
    const player = uuidToUsername[entry.uuid] ? players[uuidToUsername[entry.uuid]!] : undefined;
    // mineflayer makes no player of an entry without a name, and a latency entry has none.
    if (!player) continue;
    Object.assign(player, { uuid: entry.uuid, ping: entry.latency });
    entities ??= playerEntitiesByName(bot);
    player.entity = entities.get(player.username);
    if (player.entity === bot.entity) (bot as unknown as { player: TabPlayer }).player = player;
    bot.emit('playerUpdated', player as never);
  }
}

/** The first player entity of each name, in the order `Object.values(bot.entities)` gives them (mineflayer's find). */
function playerEntitiesByName(bot: Bot): Map<string | undefined, Entity> {
  const byName = new Map<string | undefined, Entity>();
  for (const entity of Object.values(bot.entities)) {
    if (entity.type === 'player' && !byName.has(entity.username)) byName.set(entity.username, entity);
  }
  return byName;
}
