import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { framed, framing } from '../helpers/framing.js';
import { splitFramesInPlace } from '../../src/world/protocol/frames-in-place.js';

/*
 * Issue 34, §2: a bot's splitter cuts its frames in place, without copying each read or throwing at its end, and
 * offers each frame to the crowd's reader as a range of the bytes. Whatever the bytes and however the socket cuts
 * them, it must hand on the frames minecraft-protocol's own splitter hands on, in the same order, less those the reader
 * takes, and the reader must be given exactly the frames' bytes.
 */

/** Whether the test's reader takes a frame: those whose first byte is odd. */
const oddFirst = (frame: Buffer) => frame.length > 0 && frame[0]! % 2 === 1;
const none = () => false;

/**
 * What a splitter hands on for `bytes` cut at `cuts`, in place (with a reader that takes the frames `takes` says,
 * listed apart) or minecraft-protocol's own (the frames `takes` says listed apart, to compare), what it holds at the end,
 * and the error it threw, if any: a connection whose splitter threw is over, so nothing is written after it.
 */
function split(inPlace: boolean, bytes: Buffer, cuts: readonly number[], takes = oddFirst, legacyPing = false) {
  const splitter = framing.createSplitter();
  splitter.recognizeLegacyPing = legacyPing;
  const taken: string[] = [];
  const reader = (all: Buffer, start: number, end: number) => {
    if (!takes(all.subarray(start, end))) return false;
    taken.push(all.subarray(start, end).toString('hex'));
    return true;
  };
  if (inPlace) splitFramesInPlace(splitter, reader);
  const handedOn: string[] = [];
  splitter.on('data', (frame: Buffer) => {
    if (inPlace || !takes(frame)) handedOn.push(frame.toString('hex'));
    else taken.push(frame.toString('hex'));
  });
  let error: string | null = null;
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    try {
      splitter.write(bytes.subarray(from, Math.max(from, cut)));
    } catch (thrown) {
      error = (thrown as Error).message;
      break;
    }
    from = Math.max(from, cut);
  }
  const held = error === null ? (splitter as unknown as { buffer: Buffer }).buffer.toString('hex') : null;
  return { handedOn, taken, held, error };
}

const payloads = fc.array(fc.uint8Array({ minLength: 0, maxLength: 300 }), { minLength: 1, maxLength: 12 });
const cutsOf = (bytes: Buffer, raw: readonly number[]) => raw.map((c) => c % (bytes.length + 1)).sort((a, b) => a - b);

describe('frames cut in place', () => {
  it('are the frames minecraft-protocol cuts, for any cutting of the bytes, less those the reader takes', () => {
    fc.assert(
      fc.property(payloads, fc.array(fc.nat(), { maxLength: 20 }), fc.nat(), (sent, rawCuts, trailing) => {
        // A frame cut short at the end: its bytes are held, as the splitter holds them, for the next read.
        const whole = framed(sent);
        const bytes = whole.subarray(0, whole.length - (trailing % Math.min(whole.length, 4)));
        const cuts = cutsOf(bytes, rawCuts);
        const ours = split(true, bytes, cuts);
        const theirs = split(false, bytes, cuts);
        expect(ours).toEqual(theirs);
        expect(theirs.error).toBeNull();
      }),
      { numRuns: 300 },
    );
  });

  it('leaves what it is not sure of to the splitter’s own transform: a legacy ping, a length past five bytes', () => {
    fc.assert(
      fc.property(
        payloads,
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.constantFrom(
          Buffer.from([0xfe, 0x01]),
          // Negative: the splitter's own transform throws.
          Buffer.from([0xff, 0xff, 0xff, 0xff, 0x7f]),
          // Six bytes, which protodef's varint reads (to ten).
          Buffer.from([0x80, 0x80, 0x80, 0x80, 0x80, 0x00, 0x00]),
        ),
        fc.boolean(),
        (sent, rawCuts, odd, legacyPing) => {
          const bytes = Buffer.concat([legacyPing ? odd : framed(sent), odd, framed(sent)]);
          const cuts = cutsOf(bytes, rawCuts);
          // No frame taken: in place or not, the same frames handed on, the same bytes held, the same error thrown.
          expect(split(true, bytes, cuts, none, legacyPing)).toEqual(split(false, bytes, cuts, none, legacyPing));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('holds no copy of a read it cuts whole: the frames handed on are views of the read', () => {
    const splitter = framing.createSplitter();
    splitFramesInPlace(splitter);
    const read = framed([new Uint8Array([1, 2, 3]), new Uint8Array([4])]);
    const frames: Buffer[] = [];
    splitter.on('data', (frame: Buffer) => frames.push(frame));
    splitter.write(read);
    // A view sees the read's bytes change; a copy would not.
    read[1] = 9;
    read[5] = 8;
    expect(frames.map((f) => f[0])).toEqual([9, 8]);
  });
});
