import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid-types.js';

/**
 * flying-squid drops a chunk column from memory once no player has it loaded;
 * without a world folder the column is then regenerated from the superflat
 * generator, so scenario blocks and every dug or placed block vanish when a bot
 * walks away, respawns or the last bot leaves. The embedded world is small, so
 * columns stay in memory for the server's lifetime.
 */
export const keepChunksPlugin: SquidPlugin = {
  server(serv: SquidServer) {
    const used = (serv as unknown as { _worldChunksUsed: Record<string, number> })._worldChunksUsed;
    (serv as unknown as { _worldUnloadPlayerChunk: unknown })._worldUnloadPlayerChunk = (
      chunkX: number,
      chunkZ: number,
      player: SquidPlayer,
    ) => {
      const id = `${chunkX},${chunkZ}`;
      delete (player.loadedChunks as Record<string, number>)[id];
      if ((used[id] ?? 0) > 0) used[id]! -= 1;
      return false;
    };
  },
};
