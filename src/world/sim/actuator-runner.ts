import type { Clock } from '../../contracts/clock.js';
import { WorldError } from '../../contracts/world.js';
import type { ActuatorLedger } from './actuator-ledger.js';
import { Operation } from './operation.js';

/** Starts actuator calls and holds the live ones, so a dropped connection can fail them all. */
export class ActuatorRunner {
  private readonly operations = new Set<Operation>();
  private connectedNow = true;

  constructor(
    private readonly clock: Clock,
    private readonly ledger: ActuatorLedger,
  ) {}

  get connected(): boolean {
    return this.connectedNow;
  }

  /** Runs one actuator call: logged, counted live until settled, refused when disconnected or already aborted. */
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
      if (signal?.aborted)
        return op.fail(new WorldError('aborted', `${command} (${detail}) was aborted before it started`));
      op.guard(() => body(op));
    });
  }

  /** Fails every live call with `error` and refuses every later one. */
  disconnect(error: WorldError): void {
    this.connectedNow = false;
    for (const operation of [...this.operations]) operation.fail(error);
  }
}
