import type { Clock } from '../../contracts/clock.js';
import { WorldError } from '../../contracts/world.js';
import type { ActuatorLedger } from './actuator-ledger.js';
import { Operation } from './operation.js';

/** Starts actuator calls and holds the live ones, so a dropped connection can fail them all. */
export class ActuatorRunner {
  private readonly operations = new Set<Operation>();
  private connectedNow = true;
  /** Set while the bot is dead: every new call is refused with it. */
  private death: WorldError | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly ledger: ActuatorLedger,
  ) {}

  get connected(): boolean {
    return this.connectedNow;
  }

  /** Runs one actuator call: logged, counted live until settled, refused when disconnected, dead or already aborted. */
  start(
    command: string,
    detail: string,
    signal: AbortSignal | undefined,
    body: (op: Operation) => void,
  ): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const entry = this.ledger.open(command, detail, this.clock.now());
      const op = new Operation(this.clock, this.ledger, entry, signal, resolve, reject, (done) =>
        this.operations.delete(done),
      );
      this.operations.add(op);
      if (!this.connectedNow)
        return op.fail(new WorldError('world_disconnected', `${command}: the sim world is disconnected`));
      if (this.death) return op.fail(new WorldError('died', `${command}: ${this.death.message}`));
      if (signal?.aborted)
        return op.fail(new WorldError('aborted', `${command} (${detail}) was aborted before it started`));
      op.guard(() => body(op));
    });
  }

  /** The bot died: fails every live call with `error` and refuses every later one until `revive`. */
  kill(error: WorldError): void {
    this.death = error;
    for (const operation of [...this.operations]) operation.fail(error);
  }

  revive(): void {
    this.death = null;
  }

  /** Fails every live call with `error` and refuses every later one. */
  disconnect(error: WorldError): void {
    this.connectedNow = false;
    for (const operation of [...this.operations]) operation.fail(error);
  }
}
