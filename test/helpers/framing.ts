import { createRequire } from 'node:module';
import type { Transform } from 'node:stream';

/** minecraft-protocol's own splitter and framer (transforms/framing.js), as a connection holds them. */
export interface FramingSplitter extends Transform {
  _transform(chunk: Buffer, encoding: BufferEncoding, done: (error?: Error | null) => void): void;
  push(frame: Buffer | null): boolean;
  buffer: Buffer;
  recognizeLegacyPing: boolean;
}

const fromMineflayer = createRequire(createRequire(import.meta.url).resolve('mineflayer/package.json'));
export const framing = createRequire(fromMineflayer.resolve('minecraft-protocol'))('./transforms/framing.js') as {
  createSplitter(): FramingSplitter;
  createFramer(): Transform;
};

/** Each payload framed as minecraft-protocol frames it (a varint length, then the bytes). */
export function framed(payloads: readonly Uint8Array[]): Buffer {
  const framer = framing.createFramer();
  const out: Buffer[] = [];
  framer.on('data', (chunk: Buffer) => out.push(chunk));
  for (const payload of payloads) framer.write(Buffer.from(payload));
  return Buffer.concat(out);
}
