import { Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

/**
 * The stdio transport, with standard output kept for JSON-RPC alone: whatever else in the process writes there
 * (a dependency's console.log, a readline prompt, a stray print) goes to standard error instead. The transport
 * writes through the original stream; `restore` puts process.stdout back as it was.
 */
export function jsonRpcStdio(): { transport: StdioServerTransport; restore(): void } {
  const stdout = process.stdout;
  const original = Object.getOwnPropertyDescriptor(stdout, 'write');
  const writeOut = stdout.write.bind(stdout);
  const jsonRpc = new Writable({
    // Called back once the real stream took the bytes, so the transport's backpressure is stdout's.
    write(chunk: Buffer, encoding, done) {
      writeOut(chunk, encoding, () => done());
    },
  });
  stdout.write = process.stderr.write.bind(process.stderr);
  return {
    transport: new StdioServerTransport(process.stdin, jsonRpc),
    restore: () => {
      if (original) Object.defineProperty(stdout, 'write', original);
      else delete (stdout as { write?: unknown }).write;
    },
  };
}
