/** Where a command writes; tests pass buffers, the binary passes the process streams. */
export interface CliIO {
  out(text: string): void;
  err(text: string): void;
}

export const processIO: CliIO = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
};

/** Exit codes shared by every command. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** Thrown inside a command to stop with a usage or input error and a clear message. */
export class CliUsageError extends Error {
  override name = 'CliUsageError';
}
