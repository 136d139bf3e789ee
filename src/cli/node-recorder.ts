import { createWriteStream, type WriteStream } from 'node:fs';
import type { RuntimeHooks } from '../runtime/hooks.js';

/** Writes every node state change of a run as one JSON line, for `verbtree tree show <name> --run <file>`. */
export function recordNodeStates(file: string): { hooks: RuntimeHooks; close(): Promise<void> } {
  const out: WriteStream = createWriteStream(file, { flags: 'w' });
  return {
    hooks: {
      nodeStates: ({ runId, tree, at, changes }) => {
        for (const change of changes) out.write(`${JSON.stringify({ runId, tree, at, ...change })}\n`);
      },
    },
    close: () =>
      new Promise((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve()))),
  };
}
