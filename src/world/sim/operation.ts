import type { Clock, TimerHandle } from '../../contracts/clock.js';
import { WorldError } from '../../contracts/world.js';
import type { ActuatorLedger, ActuatorLogEntry } from './actuator-ledger.js';

/**
 * One actuator call in flight. Its timers and clean-ups are owned here, so
 * finishing it in any way (done, refused, aborted, disconnected) stops every
 * effect it still had scheduled: nothing acts after its promise settles.
 */
export class Operation {
  private readonly timers = new Set<TimerHandle>();
  private readonly cleanups: ((error: WorldError | null) => void)[] = [];
  private settled = false;
  private readonly detachSignal: () => void;

  constructor(
    private readonly clock: Clock,
    private readonly ledger: ActuatorLedger,
    private readonly entry: ActuatorLogEntry,
    signal: AbortSignal | undefined,
    private readonly resolvePromise: () => void,
    private readonly rejectPromise: (error: unknown) => void,
    private readonly onSettled: (operation: Operation) => void,
  ) {
    const onAbort = () =>
      this.fail(new WorldError('aborted', `${entry.command} (${entry.detail}) was aborted by its signal`));
    signal?.addEventListener('abort', onAbort, { once: true });
    this.detachSignal = () => signal?.removeEventListener('abort', onAbort);
  }

  get command(): string {
    return this.entry.command;
  }

  get active(): boolean {
    return !this.settled;
  }

  /** Runs `callback` after `delayMs` of clock time unless the operation has finished by then. */
  after(delayMs: number, callback: () => void): void {
    if (this.settled) return;
    const handle = this.clock.setTimeout(() => {
      this.timers.delete(handle);
      if (!this.settled) this.guard(callback);
    }, delayMs);
    this.timers.add(handle);
  }

  /** Registers what to undo or announce when the operation ends; the argument is null on success. */
  onEnd(cleanup: (error: WorldError | null) => void): void {
    this.cleanups.push(cleanup);
  }

  /** Runs a step of the operation, turning anything it throws into the operation's rejection. */
  guard(step: () => void): void {
    try {
      step();
    } catch (error) {
      this.fail(error);
    }
  }

  succeed(): void {
    if (this.finish(null)) this.resolvePromise();
  }

  fail(error: unknown): void {
    const worldError = error instanceof WorldError ? error : new WorldError('runner_error', String(error));
    if (this.finish(worldError)) this.rejectPromise(error);
  }

  private finish(error: WorldError | null): boolean {
    if (this.settled) return false;
    this.settled = true;
    for (const handle of this.timers) this.clock.clearTimeout(handle);
    this.timers.clear();
    this.detachSignal();
    for (const cleanup of this.cleanups) cleanup(error);
    this.ledger.close(this.entry, error ? error.code : 'ok', this.clock.now());
    this.onSettled(this);
    return true;
  }
}
