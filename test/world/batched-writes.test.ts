import { once } from 'node:events';
import { createServer, connect, type Server, type Socket } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchWrites } from '../../src/world/protocol/batched-writes.js';

/*
 * Issue 34 §2: a bot's socket sends what one callback writes (a late body's ticks, each with its position packet) as
 * one write. Whatever the callbacks write, the peer must read every byte in order, nothing may be held once the
 * callback that wrote it is done, and the socket makes no more writes than there were callbacks that wrote.
 */

let server: Server;
const accepted: Socket[] = [];

beforeAll(async () => {
  server = createServer((socket) => accepted.push(socket)).listen(0, '127.0.0.1');
  await once(server, 'listening');
});

afterAll(async () => {
  for (const socket of accepted) socket.destroy();
  server.close();
  await once(server, 'close');
});

/** A connected pair: the batched socket and the server's end of it, whose reads are collected. */
async function pair(): Promise<{ socket: Socket; received: () => Buffer; systemWrites: () => number }> {
  const address = server.address() as { port: number };
  const socket = connect(address.port, '127.0.0.1');
  const before = accepted.length;
  await once(socket, 'connect');
  while (accepted.length === before) await new Promise((resolve) => setImmediate(resolve));
  const peer = accepted.at(-1)!;
  const chunks: Buffer[] = [];
  peer.on('data', (chunk: Buffer) => chunks.push(chunk));
  // Each call is one system write: a `write` of one buffer or a `writev` of many.
  let systemWrites = 0;
  const generic = (socket as unknown as { _writeGeneric: (...args: unknown[]) => void })._writeGeneric;
  (socket as unknown as { _writeGeneric: (...args: unknown[]) => void })._writeGeneric = function counted(...args) {
    systemWrites++;
    return generic.apply(this, args);
  };
  return { socket, received: () => Buffer.concat(chunks), systemWrites: () => systemWrites };
}

/** Waits, a turn at a time and at most 10,000 turns, until the peer has read `length` bytes. */
async function untilReceived(received: () => Buffer, length: number): Promise<void> {
  for (let turn = 0; turn < 10_000 && received().length < length; turn++)
    await new Promise((resolve) => setImmediate(resolve));
}

/** Runs each callback in a turn of its own (a macrotask), and says whether anything was held when the next began. */
async function runCallbacks(socket: Socket, callbacks: readonly (readonly Buffer[])[]): Promise<boolean[]> {
  const heldAtNext: boolean[] = [];
  for (const writes of callbacks) {
    await new Promise<void>((resolve) =>
      setImmediate(() => {
        heldAtNext.push(socket.writableCorked > 0);
        for (const bytes of writes) socket.write(bytes);
        resolve();
      }),
    );
  }
  await new Promise((resolve) => setImmediate(resolve));
  heldAtNext.push(socket.writableCorked > 0);
  return heldAtNext;
}

const callbacksArb = fc.array(fc.array(fc.uint8Array({ minLength: 1, maxLength: 64 }), { maxLength: 6 }), {
  minLength: 1,
  maxLength: 8,
});

describe("a bot's writes, batched per callback", () => {
  it('reach the peer whole and in order, none held past its callback, in at most one write a callback', async () => {
    await fc.assert(
      fc.asyncProperty(callbacksArb, async (raw) => {
        const callbacks = raw.map((writes) => writes.map((bytes) => Buffer.from(bytes)));
        const { socket, received, systemWrites } = await pair();
        batchWrites(socket, 'callback');
        const heldAtNext = await runCallbacks(socket, callbacks);
        const sent = Buffer.concat(callbacks.flat());
        await untilReceived(received, sent.length);
        socket.destroy();
        expect(received().equals(sent)).toBe(true);
        expect(heldAtNext.every((held) => !held)).toBe(true);
        expect(systemWrites()).toBeLessThanOrEqual(callbacks.filter((writes) => writes.length > 0).length);
      }),
      { numRuns: 60 },
    );
  }, 60_000);

  it('sends the writes of one callback as one (a socket left as it is makes one a write)', async () => {
    const writesOfOneCallback = [Buffer.from('position'), Buffer.from('position'), Buffer.from('position_look')];
    const counts: number[] = [];
    for (const batched of [false, true]) {
      const { socket, received, systemWrites } = await pair();
      if (batched) batchWrites(socket, 'callback');
      await runCallbacks(socket, [writesOfOneCallback]);
      await untilReceived(received, 29);
      socket.destroy();
      counts.push(systemWrites());
    }
    expect(counts).toEqual([3, 1]);
  });
});
