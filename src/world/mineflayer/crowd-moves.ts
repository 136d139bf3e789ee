import type { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import type { Bot } from 'mineflayer';
import type { Entity } from 'prismarine-entity';
import { Vec3 } from 'vec3';
import { splitFramesInPlace } from '../protocol/frames-in-place.js';
import type { Splitter } from '../protocol/stackless-frames.js';
import { paintingsAnnounced, setBlockStateShared } from './shared-block-states.js';

/*
 * In a crowd every bot hears every other bot in view move: a move, a turn or both every 2 ticks, and a head turn, per
 * bot in view (the embedded server sends them as vanilla does). Each of those packets went the whole way of
 * minecraft-protocol's reading: the decompressor's stream, the compiled parser's objects, four events on the client
 * ('packet', its name, 'raw.<name>', 'raw') and mineflayer's handler, which moves or turns the entity and emits
 * 'entityMoved'. With n bots in view of each other that is n² packets, and in a worker's CPU profile at 50 bots it was
 * about a quarter of its busy time. This reads those four kinds straight off the framed bytes, before the
 * decompressor (each frame where the splitter cuts it, in the read's own bytes: `splitFramesInPlace`), into one shape
 * of packet for all kinds, and does what mineflayer's handler does with them: the same arithmetic, the same conversions, the same
 * 'entityMoved'. Two more kinds the crowd sends often, arm swings (`animation`) and dig progress
 * (`block_break_animation`), do nothing in mineflayer but emit an event: while nothing listens to that event, they are
 * read and dropped; and so are the sounds of the crowd's places and digs (`sound_effect`, n a plan for n bots in
 * hearing), known by their id alone. A block changed (`block_change`, every place and dig of the crowd) is set in the bot's world as
 * mineflayer's handler sets it, without the two Blocks it builds around the change only to look for a painting there
 * (a protocol that announces no painting by a packet of its own, 1.19 on, gives mineflayer none to find), and with the
 * world's event given the bot's shared Blocks (`setBlockStateShared`). Anything it is not sure of goes the usual way, untouched: another kind, a compressed frame, an
 * entity mineflayer does not know yet (its handler invents one), an open bundle, anything already waiting in the
 * streams (so packets are never reordered), or a frame whose bytes are not exactly the layout the version's protocol
 * states.
 */

type FieldType = 'varint' | 'i16' | 'i8' | 'u8' | 'bool' | 'position';
type Fields = readonly (readonly [name: string, type: FieldType])[];

/** The layouts this reads, as minecraft-data states them for 1.21.x; a version whose protocol differs keeps them all. */
const LAYOUTS = {
  rel_entity_move: [
    ['entityId', 'varint'],
    ['dX', 'i16'],
    ['dY', 'i16'],
    ['dZ', 'i16'],
    ['onGround', 'bool'],
  ],
  entity_move_look: [
    ['entityId', 'varint'],
    ['dX', 'i16'],
    ['dY', 'i16'],
    ['dZ', 'i16'],
    ['yaw', 'i8'],
    ['pitch', 'i8'],
    ['onGround', 'bool'],
  ],
  entity_look: [
    ['entityId', 'varint'],
    ['yaw', 'i8'],
    ['pitch', 'i8'],
    ['onGround', 'bool'],
  ],
  entity_head_rotation: [
    ['entityId', 'varint'],
    ['headYaw', 'i8'],
  ],
  animation: [
    ['entityId', 'varint'],
    ['animation', 'u8'],
  ],
  block_break_animation: [
    ['entityId', 'varint'],
    ['location', 'position'],
    ['destroyStage', 'i8'],
  ],
  block_change: [
    ['location', 'position'],
    ['type', 'varint'],
  ],
} as const satisfies Record<string, Fields>;

/** The event mineflayer's entities plugin emits for each `animation` value, and nothing else (lib/plugins/entities.js). */
const ANIMATION_EVENTS = [
  'entitySwingArm',
  'entityHurt',
  'entityWake',
  'entityEat',
  'entityCriticalEffect',
  'entityMagicCriticalEffect',
] as const;
/** What mineflayer's block_actions plugin emits for `block_break_animation`, and nothing else. */
const BREAK_EVENTS = ['blockBreakProgressObserved', 'blockBreakProgressEnd'] as const;

/**
 * Kinds whose mineflayer handler does nothing but emit an event (lib/plugins/sound.js), with the event: while nothing
 * hears it and mineflayer's handler alone hears the packet, a frame of one is known by its id and dropped, whatever its
 * fields hold (its frame's length bounds it).
 */
const DROPPED_UNHEARD = { sound_effect: 'hardcodedSoundEffectHeard' } as const;

type ReadKind = keyof typeof LAYOUTS;
export type CrowdMoveKind = ReadKind | keyof typeof DROPPED_UNHEARD;
type MoveKind = Exclude<ReadKind, 'animation' | 'block_break_animation' | 'block_change'>;
/**
 * A packet read, every kind's fields in one shape (those its kind lacks left at 0): the handlers that read them see one
 * object shape, not one a kind.
 */
class Packet {
  entityId = 0;
  dX = 0;
  dY = 0;
  dZ = 0;
  yaw = 0;
  pitch = 0;
  onGround = 0;
  headYaw = 0;
  animation = 0;
  destroyStage = 0;
  type = 0;
  x = 0;
  y = 0;
  z = 0;
}
type Field = Exclude<keyof Packet, 'x' | 'y' | 'z'>;

/** The parts of minecraft-protocol's client this reads (src/client.js). */
interface ProtocolClient {
  state: string;
  splitter: Stream & Splitter;
  decompressor: Stream | null;
  deserializer: Stream;
  compressor: unknown;
  _mcBundle?: unknown[];
}
interface Stream {
  readableLength: number;
  writableLength: number;
}

interface Conversions {
  fromNotchianYawByte(this: void, yaw: number): number;
  fromNotchianPitchByte(this: void, pitch: number): number;
}

/**
 * The packets of each kind a bot read straight off the bytes, and their bytes as a 'packet' listener is given them: a
 * tally of the client's 'packet' events no longer sees them.
 */
export type CrowdMoveCounts = Record<CrowdMoveKind, { packets: number; bytes: number }>;
const COUNTS = new WeakMap<Bot, CrowdMoveCounts>();

export function crowdMovesReadDirectly(bot: Bot): CrowdMoveCounts | undefined {
  return COUNTS.get(bot);
}

/** Reads the crowd's moves of `bot` straight off its connection's frames (see above); once per bot. */
export function readCrowdMovesDirectly(bot: Bot): void {
  if (COUNTS.has(bot)) return;
  const client = bot._client as unknown as ProtocolClient;
  const kinds = kindsById(bot);
  if (kinds.size === 0) return;
  const count = () => ({ packets: 0, bytes: 0 });
  const counts: CrowdMoveCounts = {
    rel_entity_move: count(),
    entity_move_look: count(),
    entity_look: count(),
    entity_head_rotation: count(),
    animation: count(),
    block_break_animation: count(),
    block_change: count(),
    sound_effect: count(),
  };
  COUNTS.set(bot, counts);
  const apply = applier(bot);
  const unheard = (event: string | undefined) =>
    event === undefined || (bot as EventEmitter).listenerCount(event) === 0;
  /** Does with the packet what mineflayer would, if it can be sure to; false leaves it to the usual way. */
  const setsBlocks = !paintingsAnnounced(bot);
  const handled = (kind: CrowdMoveKind, packet: Packet): boolean => {
    if (kind === 'sound_effect')
      return unheard(DROPPED_UNHEARD[kind]) && (client as unknown as EventEmitter).listenerCount(kind) === 1;
    if (kind === 'block_break_animation') return BREAK_EVENTS.every(unheard);
    if (kind === 'block_change') {
      // mineflayer's blocks plugin alone hears it: the bot's world emits what a block change does ('blockUpdate').
      if (!setsBlocks || (client as unknown as EventEmitter).listenerCount('block_change') !== 1) return false;
      setBlockStateShared(bot, new Vec3(packet.x, packet.y, packet.z), packet.type);
      return true;
    }
    const entity = bot.entities[packet.entityId];
    if (entity === undefined) return false;
    if (kind === 'animation') return unheard(ANIMATION_EVENTS[packet.animation]);
    apply(kind, entity, packet);
    return true;
  };
  const compressed = () => client.compressor !== null;
  splitFramesInPlace(client.splitter, (bytes, start, end) => {
    if (client.state !== 'play' || !idle(client)) return false;
    const read = readFrame(bytes, start, end, compressed(), kinds);
    if (read === null || !handled(read.kind, read.packet)) return false;
    counts[read.kind].packets++;
    // The packet's own bytes, as a 'packet' listener is given them: without the compressed length's 0.
    counts[read.kind].bytes += end - start - (compressed() ? 1 : 0);
    return true;
  });
}

/** Nothing waits in the streams after the splitter, nor in an open bundle: a packet read now keeps its place. */
function idle(client: ProtocolClient): boolean {
  const { splitter, decompressor, deserializer } = client;
  if (splitter.readableLength > 0 || deserializer.writableLength > 0 || deserializer.readableLength > 0) return false;
  if (decompressor && (decompressor.writableLength > 0 || decompressor.readableLength > 0)) return false;
  return (client._mcBundle?.length ?? 0) === 0;
}

/** The play state's packet id of each kind whose layout in the bot's protocol is the one this reads. */
function kindsById(bot: Bot): Map<number, CrowdMoveKind> {
  const types = (bot.registry as unknown as { protocol: { play: { toClient: { types: Record<string, unknown> } } } })
    .protocol.play.toClient.types;
  const packet = types.packet as [string, [{ type: [string, { mappings: Record<string, string> }] }]];
  const mappings = packet[1][0].type[1].mappings;
  const kinds = new Map<number, CrowdMoveKind>();
  for (const [hex, name] of Object.entries(mappings)) {
    if (name in DROPPED_UNHEARD) kinds.set(Number(hex), name as CrowdMoveKind);
    if (!(name in LAYOUTS)) continue;
    const kind = name as ReadKind;
    const stated = ['container', LAYOUTS[kind].map(([field, type]) => ({ name: field, type }))];
    if (JSON.stringify(types[`packet_${kind}`]) === JSON.stringify(stated)) kinds.set(Number(hex), kind);
  }
  return kinds;
}

/** Where a frame's reading is in `bytes`, and where the frame ends. */
interface Cursor {
  offset: number;
  end: number;
}

/**
 * The packet of the frame `bytes[start, end)`, when it is an uncompressed one of `kinds` whose bytes are exactly its
 * layout (or one dropped unheard: its id alone, its fields left unread); otherwise null.
 */
function readFrame(
  bytes: Buffer,
  start: number,
  end: number,
  compressed: boolean,
  kinds: ReadonlyMap<number, CrowdMoveKind>,
): { kind: CrowdMoveKind; packet: Packet } | null {
  const at: Cursor = { offset: start, end };
  if (compressed && readVarInt(bytes, at) !== 0) return null;
  const id = readVarInt(bytes, at);
  const kind = id === null ? undefined : kinds.get(id);
  if (kind === undefined) return null;
  const packet = new Packet();
  if (kind in DROPPED_UNHEARD) return { kind, packet };
  const layout: Fields = LAYOUTS[kind as ReadKind];
  for (let i = 0; i < layout.length; i++) {
    const [name, type] = layout[i]!;
    if (type === 'position') {
      if (!readPosition(bytes, at, packet)) return null;
      continue;
    }
    const value = readField(bytes, at, type);
    if (value === null) return null;
    packet[name as Field] = value;
  }
  return at.offset === end ? { kind, packet } : null;
}

const SIZES = { i16: 2, i8: 1, u8: 1, bool: 1 } as const;

function readField(bytes: Buffer, at: Cursor, type: Exclude<FieldType, 'position'>): number | null {
  if (type === 'varint') return readVarInt(bytes, at);
  const size = SIZES[type];
  if (at.offset + size > at.end) return null;
  const value =
    type === 'i16' ? bytes.readInt16BE(at.offset) : type === 'i8' ? bytes.readInt8(at.offset) : bytes[at.offset]!;
  if (type === 'bool' && value > 1) return null;
  at.offset += size;
  return value;
}

/** A block position packed in 64 bits as 1.14 on packs it: x in the top 26 bits, z in the next 26, y in the last 12. */
function readPosition(bytes: Buffer, at: Cursor, packet: Packet): boolean {
  if (at.offset + 8 > at.end) return false;
  const high = bytes.readInt32BE(at.offset);
  const low = bytes.readUInt32BE(at.offset + 4);
  at.offset += 8;
  const z = ((high & 0x3f) << 20) | (low >>> 12);
  packet.x = high >> 6;
  packet.y = (low << 20) >> 20;
  packet.z = (z << 6) >> 6;
  return true;
}

/** A protocol varint (at most 5 bytes, a signed 32-bit value), or null when the frame ends first or it runs longer. */
function readVarInt(bytes: Buffer, at: Cursor): number | null {
  let value = 0;
  for (let shift = 0; shift < 35; shift += 7) {
    if (at.offset >= at.end) return null;
    const byte = bytes[at.offset++]!;
    value |= (byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return value;
  }
  return null;
}

/** What mineflayer's entities plugin does with each kind (lib/plugins/entities.js), with its own conversions. */
function applier(bot: Bot): (kind: MoveKind, entity: Entity, packet: Packet) => void {
  const fromMineflayer = createRequire(createRequire(import.meta.url).resolve('mineflayer/package.json'));
  const conv = fromMineflayer('./lib/conversions.js') as Conversions;
  const scale = bot.supportFeature('fixedPointDelta') ? 32 : bot.supportFeature('fixedPointDelta128') ? 128 * 32 : 0;
  const move = (entity: Entity, p: Packet) => {
    if (scale !== 0) entity.position.translate(p.dX / scale, p.dY / scale, p.dZ / scale);
  };
  const look = (entity: Entity, p: Packet) => {
    entity.yaw = conv.fromNotchianYawByte(p.yaw);
    entity.pitch = conv.fromNotchianPitchByte(p.pitch);
  };
  return (kind, entity, packet) => {
    if (kind === 'rel_entity_move' || kind === 'entity_move_look') move(entity, packet);
    if (kind === 'entity_look' || kind === 'entity_move_look') look(entity, packet);
    // mineflayer keeps the head's yaw on the entity, though prismarine-entity's types do not name it.
    if (kind === 'entity_head_rotation')
      (entity as { headYaw?: number }).headYaw = conv.fromNotchianYawByte(packet.headYaw);
    bot.emit('entityMoved', entity);
  };
}
