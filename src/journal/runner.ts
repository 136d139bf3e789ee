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

  constructor(
    private readonly journal: Journal,
    private readonly options: RunnerOptions,
  ) {}

  start(): this {
    const now = this.journal.now();
    this.journal
      .sql('INSERT INTO runners (id, pid, host, kind, status, started_at, last_heartbeat) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(this.id, process.pid, hostname(), this.options.kind, 'running', now, now);
    this.schedule();
    return this;
  }

  beat(): void {
    const now = this.journal.now();
    this.journal.write(() => {
      this.journal.sql('UPDATE runners SET last_heartbeat = ? WHERE id = ?').run(now, this.id);
      this.journal.sql('INSERT INTO heartbeats (runner_id, at) VALUES (?, ?)').run(this.id, now);
      // Keep the last hundred beats per runner: enough to see a rhythm, not a growing log.
      this.journal
        .sql(
          'DELETE FROM heartbeats WHERE runner_id = ? AND at < (SELECT MIN(at) FROM (SELECT at FROM heartbeats WHERE runner_id = ? ORDER BY at DESC LIMIT 100))',
        )
        .run(this.id, this.id);
    });
  }

  stop(): void {
    if (this.timer) this.options.clock.clearTimeout(this.timer);
    this.timer = null;
    this.journal
      .sql("UPDATE runners SET status = 'stopped', stopped_at = ? WHERE id = ? AND status = 'running'")
      .run(this.journal.now(), this.id);
  }

  private schedule(): void {
    this.timer = this.options.clock.setTimeout(() => {
      this.beat();
      this.schedule();
    }, this.options.beatEveryMs ?? DEFAULT_BEAT_MS);
    // A heartbeat must not keep a finished process alive.
    (this.timer as { timer?: { unref?: () => void } }).timer?.unref?.();
  }
}

export const DEFAULT_BEAT_MS = 1_000;
