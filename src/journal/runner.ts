import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { wallClockOf } from '../clock/lag-discounting-clock.js';
import type { Clock, TimerHandle } from '../contracts/clock.js';
import type { Journal } from './journal.js';

export interface RunnerOptions {
  /** What kind of process runs: 'run', 'serve', or an embedding program's own name. */
  kind: string;
  clock: Clock;
  /** How often the runner beats; health checks call it a zombie after several missed beats. */
  beatEveryMs?: number;
  /**
   * A fleet worker's node id, as its runner id (and its leases' holder): registering takes over a runner of that id
   * silent this long (its earlier life), and fails with a RunnerInUseError while one still beats. Default: a new UUID.
   */
  node?: { id: string; takeOverSilentAfterMs: number };
}

/**
 * This process as the journal knows it: a runner row with its pid and a
 * heartbeat written on the clock's timer. Health checks find a dead runner by
 * its pid and a zombie (alive, not beating) by its last heartbeat; a fleet
 * worker (kind `worker`) by its heartbeat and its bot leases, never its pid.
 */
export class JournalRunner {
  readonly id: string;
  private timer: TimerHandle | null = null;
  private stopped = false;

  private readonly options: RunnerOptions;

  constructor(
    private readonly journal: Journal,
    options: RunnerOptions,
  ) {
    this.id = options.node?.id ?? randomUUID();
    this.options = { ...options, clock: wallClockOf(options.clock) };
  }

  async start(): Promise<this> {
    const takeOver = this.options.node ? { takeOverSilentAfterMs: this.options.node.takeOverSilentAfterMs } : {};
    await this.journal.registerRunner(
      { id: this.id, pid: process.pid, host: hostname(), kind: this.options.kind },
      takeOver,
    );
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
