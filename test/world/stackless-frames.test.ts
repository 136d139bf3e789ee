import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { framed, framing } from '../helpers/framing.js';
import { splitWithoutStacks } from '../../src/world/protocol/stackless-frames.js';

/*
 * Issue 34, §2: minecraft-protocol's splitter ends every chunk it reads with a PartialReadError thrown and caught, and
 * each took two stack traces. It now runs with none taken: the frames it cuts must be the same for any chunking of the
 * bytes, and whatever it hands on must run with the stack traces as they were.
 */

/** What a splitter hands on for `bytes` cut at `cuts`, and the stack trace limit in force as it did. */
function split(stackless: boolean, bytes: Buffer, cuts: readonly number[]) {
  const splitter = framing.createSplitter();
  if (stackless) splitWithoutStacks(splitter);
  const frames: string[] = [];
  const limits = new Set<number>();
  splitter.on('data', (frame: Buffer) => {
    frames.push(frame.toString('hex'));
    limits.add(Error.stackTraceLimit);
  });
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    splitter.write(bytes.subarray(from, Math.max(from, cut)));
    from = Math.max(from, cut);
  }
  return { frames, limits: [...limits] };
}

describe('frames split with no stack traces taken', () => {
  it('are the frames minecraft-protocol cuts, for any chunking of the bytes, handed on with the stack traces as they were', () => {
    const limit = Error.stackTraceLimit;
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ minLength: 1, maxLength: 400 }), { minLength: 1, maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        (payloads, rawCuts) => {
          const bytes = framed(payloads);
          const cuts = rawCuts.map((c) => c % (bytes.length + 1)).sort((a, b) => a - b);
          const ours = split(true, bytes, cuts);
          expect(ours.frames).toEqual(split(false, bytes, cuts).frames);
          expect(ours.frames).toEqual(payloads.map((p) => Buffer.from(p).toString('hex')));
          expect(ours.limits).toEqual([limit]);
          expect(Error.stackTraceLimit).toBe(limit);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('takes no stack trace for the partial reads it throws and catches, and gives the stack traces back', () => {
    const limit = Error.stackTraceLimit;
    const bytes = framed([new Uint8Array(300), new Uint8Array(5)]);
    const taken = (stackless: boolean) => {
      // protodef's errors take their stack with Error.captureStackTrace: note the limit in force each time.
      const capture = Error.captureStackTrace.bind(Error);
      const limits: number[] = [];
      Error.captureStackTrace = (target, constructor) => {
        limits.push(Error.stackTraceLimit);
        capture(target, constructor);
      };
      try {
        split(stackless, bytes, [1, 150, 303]);
      } finally {
        Error.captureStackTrace = capture;
      }
      return limits;
    };
    expect(taken(false).every((l) => l === limit)).toBe(true);
    const ours = taken(true);
    expect(ours.length).toBeGreaterThan(0);
    expect(ours.every((l) => l === 0)).toBe(true);
    expect(Error.stackTraceLimit).toBe(limit);
  });
});
