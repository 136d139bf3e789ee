import type { Socket } from 'node:net';
import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid-types.js';
import { packetCompleter } from './entity-teleport.js';

/** A server-side connection as minecraft-protocol builds it: serializer → (compressor) → framer → socket. */
interface Connection {
  state: string;
  socket?: Socket;
  serializer: Stage;
  compressor: (Stage & { compressionThreshold: number }) | null;
  framer: Stage;
  cipher?: unknown;
  write(name: string, params: object): void;
}

interface Stage {
  readableLength: number;
  writableLength: number;
}

interface PlaySerializer {
  createPacketBuffer(packet: { name: string; params: object }): Buffer;
}

/**
 * Sends a packet meant for many players (another player's step, look or dig,
 * a block change) by serializing it once and writing the same framed bytes to
 * each socket. flying-squid writes it to each player in turn, and each write
 * serializes, compresses and frames it again through that connection's
 * streams: a fleet of n bots moving costs n² serializations per step, which
 * at 100 bots on one server was more work than the server could do, so its
 * reads fell behind and it kicked bots whose keep-alive answers waited
 * unread. A connection whose streams still hold data (backpressure, a packet
 * being compressed) gets the packet through those streams instead, so the
 * order of its packets never changes.
 */
export const fanOutPlugin: SquidPlugin = {
  server(serv: SquidServer) {
    const serializer = (serv._server as unknown as { serializer: PlaySerializer }).serializer;
    const complete = packetCompleter(serv);
    serv._writeArray = (name: string, params: object, players: readonly SquidPlayer[]) => {
      if (players.length === 0) return;
      if (players.length === 1) return players[0]!._client.write(name, params);
      let packet: Buffer;
      try {
        packet = serializer.createPacketBuffer({ name, params: complete(name, params) });
      } catch (error) {
        // As when one connection's serializer fails: each of them is dropped (see the server's error handler).
        for (const player of players) player._client.emit('error', error);
        return;
      }
      const frames = new Map<number, Buffer>();
      for (const player of players) {
        const connection = player._client as unknown as Connection;
        const threshold = connection.compressor?.compressionThreshold ?? -1;
        // Through the connection's own streams: behind what they hold, and compressed when big enough.
        if (!idle(connection) || (threshold >= 0 && packet.length >= threshold)) {
          connection.write(name, params);
          continue;
        }
        let frame = frames.get(threshold);
        if (!frame) frames.set(threshold, (frame = framed(packet, threshold)));
        connection.socket!.write(frame);
      }
    };
  },
};

/** True when nothing is queued in the connection's streams, so bytes written to its socket come next in order. */
function idle(connection: Connection): boolean {
  const { state, socket, serializer, compressor, framer, cipher } = connection;
  if (state !== 'play' || !socket?.writable || cipher) return false;
  if (compressor && (compressor.readableLength > 0 || compressor.writableLength > 0)) return false;
  return (
    serializer.readableLength === 0 &&
    serializer.writableLength === 0 &&
    framer.readableLength === 0 &&
    framer.writableLength === 0
  );
}

/** The bytes minecraft-protocol's compressor (below its threshold) and framer would send for `packet`. */
function framed(packet: Buffer, threshold: number): Buffer {
  const compressed = threshold >= 0;
  const body = compressed ? packet.length + 1 : packet.length;
  const head = varint(body);
  return Buffer.concat(compressed ? [head, Buffer.of(0), packet] : [head, packet]);
}

function varint(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value >>> 0;
  while (rest >= 0x80) {
    bytes.push((rest & 0x7f) | 0x80);
    rest >>>= 7;
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}
