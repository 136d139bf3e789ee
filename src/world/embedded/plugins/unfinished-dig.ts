import type { SquidPlayer, SquidPlugin } from '../squid-types.js';

const START_DIGGING = 0;
const CANCEL_DIGGING = 1;
const FINISH_DIGGING = 2;

interface DigPacket {
  status: number;
  location: { x: number; y: number; z: number };
  face: number;
  sequence: number;
}

/**
 * flying-squid animates a dig with a 100 ms interval that only a cancel or
 * finish packet clears; a player who leaves mid-dig (or a server stopped
 * mid-dig) leaves it running forever. On disconnect, or when asked at stop,
 * this sends flying-squid the cancel the client never sent.
 */
export const unfinishedDigPlugin: SquidPlugin = {
  player(player: SquidPlayer) {
    let digging: DigPacket['location'] | null = null;
    player._client.on('block_dig', (packet: DigPacket) => {
      if (packet.status === START_DIGGING) digging = packet.location;
      else if (packet.status === CANCEL_DIGGING || packet.status === FINISH_DIGGING) digging = null;
    });
    const cancel = () => {
      if (!digging) return;
      const location = digging;
      digging = null;
      player._client.emit('block_dig', { status: CANCEL_DIGGING, location, face: 1, sequence: 0 } satisfies DigPacket);
    };
    player.once('disconnected', cancel);
    player.verbtreeCancelDig = cancel;
  },
};
