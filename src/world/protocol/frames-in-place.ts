import type { Splitter } from './stackless-frames.js';

/*
 * minecraft-protocol's splitter (transforms/framing.js) cuts a connection's bytes into frames, and for each read of the
 * socket it copies what it holds and the read into a new buffer (`Buffer.concat`, even when it holds nothing), reads
 * each frame's length with protodef's varint reader (an object a length) and learns that the bytes have run out from
 * the PartialReadError that reader throws at the end of every read. In a crowd a bot's reads are each a run of small
 * frames, the others' moves, n for n bots in view: in the CPU profile of a crowd of 150 on two workers that framing
 * was 4 % of a worker's busy time, and the 'data' chain each frame then went through to the crowd's direct reader
 * (crowd-moves.ts) as much again. This cuts the same frames in place: the read itself when nothing is held, each length
 * read without an object or an exception, and each frame offered first, as a range of the bytes, to a reader that
 * can take it there (no buffer made for it); a frame the reader does not take is pushed as the splitter pushes it, a
 * view of the read as the splitter's were views of its copy (a socket's reads are buffers of their own, never written
 * again).
 * Anything this is not sure of goes to the splitter's own transform from that byte on, as it would have gone: a legacy
 * ping's recognition (a server's handshake), a length longer than a varint's five bytes or negative.
 */

/** Takes the frame `bytes[start, end)` itself and says so, or says false to have it pushed the usual way. */
export type FrameReader = (bytes: Buffer, start: number, end: number) => boolean;

/** The splitter's own state, as framing.js keeps it. */
interface FramingSplitter extends Splitter {
  buffer: Buffer;
  recognizeLegacyPing: boolean;
  [IN_PLACE]?: { reader: FrameReader | null };
}

const IN_PLACE = Symbol.for('verbtree.framesInPlace');
const NOTHING = Buffer.alloc(0);

/**
 * Cuts the splitter's frames in place from now on (see above), offering each to `reader` first, if one is given: a
 * splitter has one reader at most, and a later call without one keeps it. The frames a splitter hands on, their order
 * and what it holds between reads are its own transform's, for any cutting of the bytes.
 */
export function splitFramesInPlace(splitter: Splitter, reader: FrameReader | null = null): void {
  const framing = splitter as FramingSplitter;
  const installed = framing[IN_PLACE];
  if (installed) {
    if (reader === null) return;
    if (installed.reader !== null) throw new Error('splitFramesInPlace: this splitter has a frame reader already');
    installed.reader = reader;
    return;
  }
  const state = { reader };
  framing[IN_PLACE] = state;
  const ownTransform = framing._transform.bind(framing);
  framing._transform = (chunk, encoding, done) => {
    if (framing.recognizeLegacyPing) return ownTransform(chunk, encoding, done);
    const bytes = framing.buffer.length === 0 ? chunk : Buffer.concat([framing.buffer, chunk]);
    let offset = 0;
    for (;;) {
      const header = frameHeader(bytes, offset);
      if (header === UNSURE) {
        framing.buffer = bytes.subarray(offset);
        return ownTransform(NOTHING, encoding, done);
      }
      if (header === INCOMPLETE) break;
      const start = offset + headerSize;
      const end = start + header;
      if (end > bytes.length) break;
      if (state.reader === null || !state.reader(bytes, start, end)) framing.push(bytes.subarray(start, end));
      offset = end;
    }
    framing.buffer = offset === 0 ? bytes : bytes.subarray(offset);
    done();
  };
}

const INCOMPLETE = -1;
const UNSURE = -2;
/** The size of the last length `frameHeader` read: a module's variable, so that a read makes no object. */
let headerSize = 0;

/**
 * The length of the frame at `offset` (a varint of at most 5 bytes, not negative), with its size in `headerSize`;
 * INCOMPLETE when the bytes end first, UNSURE for a length the splitter's own transform should judge.
 */
function frameHeader(bytes: Buffer, offset: number): number {
  let value = 0;
  for (let i = 0; i < 5; i++) {
    if (offset + i >= bytes.length) return INCOMPLETE;
    const byte = bytes[offset + i]!;
    value |= (byte & 0x7f) << (7 * i);
    if ((byte & 0x80) === 0) {
      headerSize = i + 1;
      return value < 0 ? UNSURE : value;
    }
  }
  return UNSURE;
}
