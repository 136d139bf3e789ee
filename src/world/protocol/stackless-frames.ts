/*
 * minecraft-protocol's splitter (transforms/framing.js) cuts the connection's bytes into frames by reading each
 * frame's length, a varint, until the bytes run out, and it learns that they have run out from an exception: every
 * chunk of bytes received ends with a PartialReadError thrown and caught. Each of those builds its stack trace twice
 * (protodef's ExtendableError), and in a worker's CPU profile of a crowd of 50 bots that was 3.5 % of its busy time.
 * The splitter catches those errors itself and never shows them: this runs its transform with no stack traces taken.
 * An error it does not catch (a length too long to be a varint) still ends the connection, as before, without a stack.
 */

/** minecraft-protocol's splitter, as its client and its server connections each hold one (`client.splitter`). */
export interface Splitter {
  _transform(chunk: Buffer, encoding: BufferEncoding, done: (error?: Error | null) => void): void;
  push(frame: Buffer | null): boolean;
}

const STACKLESS = Symbol.for('verbtree.stacklessFrames');

/**
 * Once per splitter, a bot's or a server connection's: runs the splitter's own work with no stack traces taken, and
 * everything it hands on (each frame it pushes, which the client parses and handles at once, and its callback) with
 * the stack traces as they were.
 */
export function splitWithoutStacks(splitter: Splitter & { [STACKLESS]?: true }): void {
  if (splitter[STACKLESS]) return;
  splitter[STACKLESS] = true;
  /** The stack trace limit to give back, while the splitter's own code runs. */
  let outer: number | undefined;
  const withStacks = <T>(run: () => T): T => {
    if (outer === undefined) return run();
    const limit = outer;
    Error.stackTraceLimit = limit;
    outer = undefined;
    try {
      return run();
    } finally {
      outer = limit;
      Error.stackTraceLimit = 0;
    }
  };
  const push = splitter.push.bind(splitter);
  splitter.push = (frame) => withStacks(() => push(frame));
  const transform = splitter._transform.bind(splitter);
  splitter._transform = (chunk, encoding, done) => {
    outer = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      transform(chunk, encoding, (error) => withStacks(() => done(error)));
    } finally {
      Error.stackTraceLimit = outer;
      outer = undefined;
    }
  };
}
