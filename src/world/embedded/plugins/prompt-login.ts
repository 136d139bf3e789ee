import type { SquidPlayer, SquidPlugin } from '../squid-types.js';

/**
 * flying-squid finishes a login only at the client's first `flying` or `look`
 * packet: then it sends the remaining chunks and teleports the player back to
 * where it logged in ("so it does not fall through the world"). mineflayer
 * sends neither until it first turns its head, which is typically the first
 * dig: the bot is yanked back to the spawn point mid-task and has only the
 * nearest chunks until then. Finishing the login at once moves that teleport
 * to the moment of spawning, where it is harmless.
 */
export const promptLoginPlugin: SquidPlugin = {
  player(player: SquidPlayer) {
    // waitPlayerLogin is defined by the login plugin, after this one; 'asap' comes before login runs.
    player.once('asap', () => {
      player.waitPlayerLogin = () => Promise.resolve();
    });
  },
};
