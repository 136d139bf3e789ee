import type { FailureCode } from '../../contracts/failure-codes.js';

export interface ActuatorLogEntry {
  seq: number;
  command: string;
  /** What the command was asked to do, e.g. `block 3,0,5` or `cobblestone at 1,0,2`. */
  detail: string;
  startedAt: number;
  /** Null while the command is live. */
  settledAt: number | null;
  /** `ok`, the failure code it rejected with, or null while live. */
  outcome: 'ok' | FailureCode | null;
}

/** Every actuator call a world has seen, so tests can assert nothing acted after its step ended. */
export class ActuatorLedger {
  readonly log: ActuatorLogEntry[] = [];
  private live = 0;
  private started = 0;

  /** With `record` false only the live count is kept, so long benches do not grow a log. */
  constructor(private readonly record = true) {}

  open(command: string, detail: string, at: number): ActuatorLogEntry {
    const entry: ActuatorLogEntry = {
      seq: ++this.started,
      command,
      detail,
      startedAt: at,
      settledAt: null,
      outcome: null,
    };
    if (this.record) this.log.push(entry);
    this.live++;
    return entry;
  }

  close(entry: ActuatorLogEntry, outcome: 'ok' | FailureCode, at: number): void {
    if (entry.settledAt !== null) return;
    entry.settledAt = at;
    entry.outcome = outcome;
    this.live--;
  }

  liveCount(): number {
    return this.live;
  }
}
