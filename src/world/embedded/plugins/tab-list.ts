import { setsLatencyAlone, type PlayerInfo } from '../../protocol/player-info.js';
import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid-types.js';

interface TabListServer extends SquidServer {
  /** flying-squid's: the whole tab list, written through `toPlayer._writeOthers` (to every player but it). */
  _sendPlayerList(toPlayer: Pick<SquidPlayer, '_writeOthers'>): void;
  /** flying-squid's: the joining player's entry, written to every other player. */
  _sendPlayerEventNewJoin(player: SquidPlayer): void;
}

/** Vanilla sends every player's latency to every player once every 600 ticks, 30 s (PlayerList.tick). */
export const LATENCY_EVERY_TICKS = 600;

/** The latency updates this plugin sends (flying-squid's own are dropped). */
const ownUpdates = new WeakSet<object>();

/**
 * The tab list (player_info) reaches players as vanilla sends it when one joins (PlayerList.placeNewPlayer): the
 * joining player gets every player's entry, its own included, and each other player gets the joining player's alone.
 *
 * flying-squid wrote the whole list to every other player on each join, and nothing to the joining one. So n joins
 * cost n² entries each, n³ in all, and mineflayer's player_info handler looks each entry's player up among all of
 * the bot's entities: joins slowed with the square of the fleet and beyond (150 bots on two workers took about a
 * minute to join, 300 never all did). And a bot never learnt the names of the players who joined before it, so their
 * entities had no username.
 *
 * Each player's latency reaches every player as vanilla sends it, once every 600 ticks, one packet for all. flying-squid
 * wrote each player the whole list's latencies every 5 s, and mineflayer's player_info handler looks each entry's
 * player up among all of the bot's entities: in a crowd, where every bot sees every other, n bots cost n³ lookups every
 * 5 s (at 300 bots in view on two workers, every bot scanned its 300 entities for each of 300 entries: 2.7 million entity checks a second a
 * worker, paid by idle bots too). flying-squid's interval still runs (it is its login's closure, cleared with the
 * player's other login timers), but what it writes is dropped here.
 *
 * login.js sets `serv._sendPlayerList` anew as each player connects, after this plugin's hook for that player has run
 * (flying-squid calls external plugins' hooks first); at `asap`, which comes after every hook and before the join,
 * this one is set in its place.
 */
export const tabListPlugin: SquidPlugin = {
  server(serv: SquidServer) {
    serv.on('tick', (_delta: number, tick: number) => {
      if (tick % LATENCY_EVERY_TICKS !== 0 || serv.players.length === 0) return;
      const update = latencyUpdate(serv);
      ownUpdates.add(update);
      serv._writeArray('player_info', update, serv.players);
    });
  },
  player(player: SquidPlayer, serv: SquidServer) {
    const write = player._client.write.bind(player._client);
    player._client.write = (name, params) => {
      if (name === 'player_info' && setsLatencyAlone(params) && !ownUpdates.has(params)) return;
      write(name, params);
    };
    player.once('asap', () => {
      const server = serv as TabListServer;
      const wholeListToOthers = server._sendPlayerList.bind(server);
      server._sendPlayerList = (joining) => {
        const to = joining as SquidPlayer;
        // flying-squid's own list, in the shape of this version, written to the joining player alone.
        wholeListToOthers({ _writeOthers: (name, params) => to._client.write(name, params) });
        server._sendPlayerEventNewJoin(to);
      };
    });
  },
};

function latencyUpdate(serv: SquidServer): PlayerInfo {
  const bitfield = serv.registry.supportFeature('playerInfoActionIsBitfield');
  // flying-squid's shape of the update (login.js fillTabList): the field is `latency` with a bitfield, `ping` before.
  const data = serv.players.map((player) => {
    const latency = (player._client as { latency?: number }).latency ?? 0;
    return bitfield ? { uuid: player.uuid, latency } : { uuid: player.uuid, ping: latency };
  });
  return { action: bitfield ? { update_latency: true } : 'update_latency', data };
}
