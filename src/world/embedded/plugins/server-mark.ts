import { randomUUID } from 'node:crypto';
import { SERVER_MARK_CHANNEL } from '../../server-mark.js';
import type { SquidPlayer, SquidPlugin } from '../squid-types.js';

/**
 * Tells each player that logs in which server process this is (an id made at its start) and up to when the world
 * it started from was saved, on verbtree's plugin channel. A client that rejoins after the server went away learns
 * from it that the server restarted and which of its own successes may be gone with the time after that save, where
 * a vanilla server leaves it to guess from the world's age.
 */
export function serverMarkPlugin(savedUpTo: number | null): SquidPlugin {
  const server = randomUUID();
  const data = Buffer.from(JSON.stringify({ server, savedUpTo }), 'utf8');
  return {
    player(player: SquidPlayer) {
      player.once('asap', () => player._client.write('custom_payload', { channel: SERVER_MARK_CHANNEL, data }));
    },
  };
}
