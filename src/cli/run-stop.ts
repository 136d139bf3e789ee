import type { CliIO } from './io.js';

/**
 * What ends a running plan early from outside: Ctrl-C or SIGTERM (a second
 * one kills as usual), or the output closing. Each cancels the running step,
 * so its end is recorded (journaled, when there is a journal) before exit.
 */
export function watchForStop(io: CliIO): { signal: AbortSignal; dispose(): void } {
  const cancel = new AbortController();
  const stop = (signal: NodeJS.Signals) => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    io.err(`${signal}: cancelling the running step; send it again to kill`);
    cancel.abort();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  io.onOutputClosed?.(() => {
    if (cancel.signal.aborted) return;
    io.err('standard output closed: cancelling the running step');
    cancel.abort();
  });
  return {
    signal: cancel.signal,
    dispose: () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    },
  };
}
