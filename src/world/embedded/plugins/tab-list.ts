import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid-types.js';

interface TabListServer extends SquidServer {
  /** flying-squid's: the whole tab list, written through `toPlayer._writeOthers` (to every player but it). */
  _sendPlayerList(toPlayer: Pick<SquidPlayer, '_writeOthers'>): void;
  /** flying-squid's: the joining player's entry, written to every other player. */
  _sendPlayerEventNewJoin(player: SquidPlayer): void;
}

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
 * login.js sets `serv._sendPlayerList` anew as each player connects, after this plugin's hook for that player has run
 * (flying-squid calls external plugins' hooks first); at `asap`, which comes after every hook and before the join,
 * this one is set in its place.
 */
export const tabListPlugin: SquidPlugin = {
  player(player: SquidPlayer, serv: SquidServer) {
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
