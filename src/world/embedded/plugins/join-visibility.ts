import type { SquidPlayer, SquidPlugin } from '../squid-types.js';

interface SeenEntity {
  id: number;
}

interface Sighted {
  spawnEntity(entity: SeenEntity): void;
  getNearby(): SeenEntity[];
  nearbyEntities: SeenEntity[];
}

/**
 * flying-squid shows a joining player to the players near it (and them to it)
 * in that player's `updateAndSpawn`, and records each pair as shown. When two
 * players log in at once, the first one's `updateAndSpawn` can send itself to
 * the second before the second has its `login` packet, so the second's client
 * never holds it, and still records the pair as shown, so the second's own
 * `updateAndSpawn` does not send it again: the second never sees the first.
 *
 * Here nothing is sent to a player before it has spawned; at its spawn it is
 * sent every entity near it, and that becomes the record of what it was shown.
 */
export const joinVisibilityPlugin: SquidPlugin = {
  player(player: SquidPlayer) {
    // spawnEntity is defined by flying-squid's spawn plugin, after this one; 'asap' comes after every player hook.
    player.once('asap', () => {
      const sighted = player as unknown as Sighted;
      const send = sighted.spawnEntity.bind(player);
      let spawned = false;
      sighted.spawnEntity = (entity) => {
        if (spawned) send(entity);
      };
      player.once('spawned', () => {
        spawned = true;
        const nearby = sighted.getNearby();
        for (const entity of nearby) send(entity);
        sighted.nearbyEntities = nearby;
      });
    });
  },
};
