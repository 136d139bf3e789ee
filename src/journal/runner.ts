import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Clock, TimerHandle } from '../contracts/clock.js';
import type { Journal } from './journal.js';

export interface RunnerOptions {
  /** What kind of process runs: 'run', 'serve', or an embedding program's own name. */
  kind: string;
  clock: Clock;
  /** How often the runner beats; health checks call it a zombie after several missed beats. */
  beatEveryMs?: number;
}

/**
 * This process as the journal knows it: a runner row with its pid and a
 * heartbeat written on the clock's timer. Health checks find a dead runner by
 * its pid and a zombie (alive, not beating) by its last heartbeat.
 */
export class JournalRunner {
  readonly id = randomUUID();
  private timer: TimerHandle | null = null;
  private stopped = false;

  constructor(
    private readonly journal: Journal,
    private readonly options: RunnerOptions,
  ) {}

  async start(): Promise<this> {
    await this.journal.registerRunner({ id: this.id, pid: process.pid, host: hostname(), kind: this.options.kind });
    this.schedule();
    return this;
  }

  beat(): Promise<void> {
    return this.journal.beatRunner(this.id);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) this.options.clock.clearTimeout(this.timer);
    this.timer = null;
    await this.journal.stopRunner(this.id);
  }

  private schedule(): void {
    this.timer = this.options.clock.setTimeout(() => {
      // A beat that cannot reach the journal is missed, not fatal: the next one tries again.
      void this.beat()
        .catch(() => undefined)
        .then(() => {
          if (!this.stopped) this.schedule();
        });
    }, this.options.beatEveryMs ?? DEFAULT_BEAT_MS);
    // A heartbeat must not keep a finished process alive.
    (this.timer as { timer?: { unref?: () => void } }).timer?.unref?.();
  }
}

export const DEFAULT_BEAT_MS = 1_000;
