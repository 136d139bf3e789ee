import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid-types.js';

/**
 * A player is spawned on the others as a player. flying-squid makes each player's entity with no entity type and
 * sends that in its spawn_entity packet as type 0, which 1.21.4 reads as an acacia boat: every bot saw the others as
 * boats, without their names.
 */
export const playerEntityPlugin: SquidPlugin = {
  player(player: SquidPlayer, serv: SquidServer) {
    player.entityType = serv.registry.entitiesByName.player!.id;
  },
};
