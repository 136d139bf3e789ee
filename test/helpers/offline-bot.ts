import { createRequire } from 'node:module';
import type { Bot } from 'mineflayer';
import { loadMineflayer } from '../../src/world/mineflayer/load-mineflayer.js';

/*
 * A mineflayer bot whose connection is a real minecraft-protocol client in the play state, with no socket: what the
 * server would send is framed and written into its splitter, and goes the whole way a real connection's bytes go
 * (decompressor, parser, client events, mineflayer's plugins). For tests of how a bot reads packets, without a server.
 */

const fromMineflayer = createRequire(createRequire(import.meta.url).resolve('mineflayer/package.json'));
const protocol = fromMineflayer('minecraft-protocol') as {
  Client: new (isServer: boolean, version: string) => OfflineClient;
  createSerializer(options: { state: string; isServer: boolean; version: string }): {
    createPacketBuffer(packet: { name: string; params: object }): Buffer;
  };
};
const { writeVarInt, sizeOfVarInt } = (() => {
  const [, write, size] = (fromMineflayer('protodef') as { types: { varint: unknown[] } }).types.varint as [
    unknown,
    (value: number, buffer: Buffer, offset: number) => number,
    (value: number) => number,
  ];
  return { writeVarInt: write, sizeOfVarInt: size };
})();
const zlib = createRequire(import.meta.url)('node:zlib') as typeof import('node:zlib');

interface OfflineClient {
  state: string;
  version: string;
  splitter: { write(chunk: Buffer): boolean };
  compressor: unknown;
  setCompressionThreshold(threshold: number): void;
}

export const OFFLINE_VERSION = '1.21.4';

export interface OfflineBot {
  bot: Bot;
  /** Sends the bot a packet as the server would (compressed when at least `threshold` bytes, if compression is on). */
  receive(this: void, name: string, params: object): void;
  /** The bytes `receive` would write for that packet, to write later with `write`. */
  framed(this: void, name: string, params: object): Buffer;
  write(this: void, bytes: Buffer): void;
}

/** An offline bot of OFFLINE_VERSION, its plugins loaded; `compressionThreshold` -1 leaves compression off. */
export async function offlineBot(compressionThreshold = 256): Promise<OfflineBot> {
  const { mineflayer } = loadMineflayer();
  const client = new protocol.Client(false, OFFLINE_VERSION);
  client.state = 'play';
  if (compressionThreshold >= 0) client.setCompressionThreshold(compressionThreshold);
  const bot = mineflayer.createBot({
    client,
    version: OFFLINE_VERSION,
    username: 'offline',
    // The plugins that read entities, block actions and sounds: the others would talk to a server (channels,
    // settings, keep-alive).
    loadInternalPlugins: false,
    plugins: { entities: true, blocks: true, block_actions: true, sound: true },
  } as never);
  await new Promise<void>((resolve) => bot.once('inject_allowed', () => resolve()));
  await new Promise((resolve) => setImmediate(resolve));
  // The blocks plugin makes its world at login, which never comes here: an empty one, as a login would.
  const World = (fromMineflayer('prismarine-world') as (version: string) => new (loader: null) => { sync: unknown })(
    OFFLINE_VERSION,
  );
  (bot as unknown as { world: unknown }).world = new World(null).sync;
  const serializer = protocol.createSerializer({ state: 'play', isServer: true, version: OFFLINE_VERSION });
  const framed = (name: string, params: object) => {
    const packet = serializer.createPacketBuffer({ name, params });
    return frame(client.compressor === null ? packet : compress(packet, compressionThreshold));
  };
  const write = (bytes: Buffer) => void client.splitter.write(bytes);
  return { bot, framed, write, receive: (name, params) => write(framed(name, params)) };
}

function compress(packet: Buffer, threshold: number): Buffer {
  if (packet.length < threshold) return Buffer.concat([varInt(0), packet]);
  return Buffer.concat([varInt(packet.length), zlib.deflateSync(packet)]);
}

function frame(payload: Buffer): Buffer {
  return Buffer.concat([varInt(payload.length), payload]);
}

function varInt(value: number): Buffer {
  const buffer = Buffer.alloc(sizeOfVarInt(value));
  writeVarInt(value, buffer, 0);
  return buffer;
}
