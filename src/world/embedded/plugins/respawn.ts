import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid-types.js';

const GAME_MODES = ['survival', 'creative', 'adventure', 'spectator'];

/**
 * Respawn for 1.20.2+ clients, which flying-squid 1.12 breaks: the client's
 * `client_command` arrives as `perform_respawn` (flying-squid compares with 0)
 * and the respawn packet now carries a `worldState`. A dead player comes back
 * at the spawn point with full health and food and the chunks around it.
 */
export function respawnPlugin(): SquidPlugin {
  return {
    player(player: SquidPlayer, serv: SquidServer) {
      player._client.on('client_command', ({ actionId }: { actionId: string | number }) => {
        if (actionId !== 'perform_respawn' && actionId !== 0) return;
        if (player.health > 0) return;
        respawn(serv, player).catch((error: unknown) =>
          serv.err(`respawn of ${player.username} failed: ${String(error)}`),
        );
      });
    },
  };
}

async function respawn(serv: SquidServer, player: SquidPlayer): Promise<void> {
  const login = serv.registry.loginPacket as unknown as { worldState: Record<string, unknown> };
  (player._unloadAllChunks as () => void)();
  player._client.write('respawn', {
    worldState: {
      ...login.worldState,
      hashedSeed: (serv as unknown as { hashedSeed: unknown }).hashedSeed,
      gamemode: GAME_MODES[player.gameMode] ?? 'survival',
      previousGamemode: 255,
      death: undefined,
    },
    copyMetadata: 0,
  });
  await (player.findSpawnPoint as () => Promise<void>)();
  player.position = player.spawnPoint.clone();
  (player.sendSpawnPosition as () => void)();
  await (player.worldSendInitialChunks as () => Promise<void>)();
  player.sendSelfPosition(player.spawnPoint);
  player.food = 20;
  player.foodSaturation = 5;
  player.updateHealth(20);
  (player.updateAndSpawn as () => void)();
  void (player.worldSendRestOfChunks as () => Promise<void>)();
}
