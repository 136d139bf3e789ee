/** Where a command writes; tests pass buffers, the binary passes the process streams. */
export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  /** Calls `listener` once if standard output closes (a reader like `head` went away): later output is dropped. */
  onOutputClosed?(listener: () => void): void;
}

let stdoutClosed = false;
const closedListeners: (() => void)[] = [];

/**
 * A closed stdout (EPIPE, e.g. `verbtree run --json | head -1`) must not kill
 * a run mid-step: the error is caught here, the output is dropped from then
 * on, and whoever listens (a running plan) ends its step explicitly and exits.
 */
function watchStdout(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
    if (stdoutClosed) return;
    stdoutClosed = true;
    for (const listener of closedListeners.splice(0)) listener();
  });
}

let watching = false;

export const processIO: CliIO = {
  out: (text) => {
    if (!watching) {
      watching = true;
      watchStdout();
    }
    if (!stdoutClosed) process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  },
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
  onOutputClosed: (listener) => {
    if (!watching) {
      watching = true;
      watchStdout();
    }
    if (stdoutClosed) listener();
    else closedListeners.push(listener);
  },
};

/** Exit codes shared by every command. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** Thrown inside a command to stop with a usage or input error and a clear message. */
export class CliUsageError extends Error {
  override name = 'CliUsageError';
}
