import type { FailureCode } from '../../contracts/failure-codes.js';
import { type ActuatorOptions, WorldError } from '../../contracts/world.js';

/** A started bot command: its outcome, and how to stop its effect early. */
export interface Command {
  done: Promise<void>;
  cancel: () => void;
}

/**
 * Runs actuator commands against the connection: refuses when disconnected, dead
 * or already aborted, cancels a command's effect on abort, disconnect or death,
 * and turns every failure into a WorldError.
 */
export class CommandRunner {
  private connectedNow = true;
  /** Set from the bot's death until it respawns: every command is refused with it. */
  private death: WorldError | null = null;
  /** Each running command's stop: it fails with `code`, "<what> interrupted: <reason>". */
  private readonly stoppers = new Set<(code: FailureCode, reason: string) => void>();

  get connected(): boolean {
    return this.connectedNow;
  }

  run(what: string, options: ActuatorOptions, start: () => Command): Promise<void> {
    if (!this.connectedNow)
      return Promise.reject(new WorldError('world_disconnected', `cannot ${what}: the bot is disconnected`));
    if (this.death) return Promise.reject(new WorldError('died', `cannot ${what}: ${this.death.message}`));
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(new WorldError('aborted', `${what} aborted before it started`));
    return new Promise<void>((resolve, reject) => {
      let command: Command;
      let settled = false;
      const cleanup = () => {
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        this.stoppers.delete(interrupt);
      };
      const stopWith = (error: WorldError) => {
        if (settled) return;
        cleanup();
        command?.cancel();
        reject(error);
      };
      const onAbort = () => stopWith(new WorldError('aborted', `${what} aborted`));
      const interrupt = (code: FailureCode, reason: string) =>
        stopWith(new WorldError(code, `${what} interrupted: ${reason}`));
      try {
        command = start();
      } catch (error) {
        cleanup();
        reject(asWorldError(what, error));
        return;
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      this.stoppers.add(interrupt);
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
    this.stopAll('world_disconnected', reason);
    return true;
  }

  /** The bot died: stops every running command `died` and refuses every later one until `revive`. */
  die(reason: string): void {
    this.death = new WorldError('died', reason);
    this.stopAll('died', reason);
  }

  revive(): void {
    this.death = null;
  }

  private stopAll(code: FailureCode, reason: string): void {
    for (const stop of [...this.stoppers]) stop(code, reason);
  }
}

function asWorldError(what: string, error: unknown): WorldError {
  if (error instanceof WorldError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new WorldError('runner_error', `${what} failed: ${message}`);
}
