import { type ActuatorOptions, WorldError } from '../../contracts/world.js';

/** A started bot command: its outcome, and how to stop its effect early. */
export interface Command {
  done: Promise<void>;
  cancel: () => void;
}

/**
 * Runs actuator commands against the connection: refuses when disconnected or
 * already aborted, cancels a command's effect on abort or disconnect, and
 * turns every failure into a WorldError.
 */
export class CommandRunner {
  private connectedNow = true;
  private readonly onDisconnect = new Set<(reason: string) => void>();

  get connected(): boolean {
    return this.connectedNow;
  }

  run(what: string, options: ActuatorOptions, start: () => Command): Promise<void> {
    if (!this.connectedNow)
      return Promise.reject(new WorldError('world_disconnected', `cannot ${what}: the bot is disconnected`));
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(new WorldError('aborted', `${what} aborted before it started`));
    return new Promise<void>((resolve, reject) => {
      let command: Command;
      let settled = false;
      const cleanup = () => {
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        this.onDisconnect.delete(onDisconnect);
      };
      const stopWith = (error: WorldError) => {
        if (settled) return;
        cleanup();
        command?.cancel();
        reject(error);
      };
      const onAbort = () => stopWith(new WorldError('aborted', `${what} aborted`));
      const onDisconnect = (reason: string) =>
        stopWith(new WorldError('world_disconnected', `${what} interrupted: ${reason}`));
      try {
        command = start();
      } catch (error) {
        cleanup();
        reject(asWorldError(what, error));
        return;
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      this.onDisconnect.add(onDisconnect);
      command.done.then(
        () => {
          if (settled) return;
          cleanup();
          resolve();
        },
        (error: unknown) => {
          if (settled) return;
          cleanup();
          reject(asWorldError(what, error));
        },
      );
    });
  }

  /** Marks the connection lost and stops every running command; false when it was already lost. */
  disconnect(reason: string): boolean {
    if (!this.connectedNow) return false;
    this.connectedNow = false;
    for (const reject of [...this.onDisconnect]) reject(reason);
    return true;
  }
}

function asWorldError(what: string, error: unknown): WorldError {
  if (error instanceof WorldError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new WorldError('runner_error', `${what} failed: ${message}`);
}
