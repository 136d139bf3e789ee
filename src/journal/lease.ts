import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { wallClockOf } from '../clock/lag-discounting-clock.js';
import type { Clock, TimerHandle } from '../contracts/clock.js';
import type { Journal } from './journal.js';
import { processAlive } from './process-alive.js';
import { describeHolder } from './sql/plan-leases.js';

export { LeaseHeldError } from './plan-conflict.js';

export interface LeaseOptions {
  clock: Clock;
  /** What kind of process holds it (shown to a loser): run, resume, serve. */
  kind: string;
  /** How often the holder renews its heartbeat. */
  renewEveryMs?: number;
  /** A holder silent this long has stopped: its lease can be taken over. */
  staleAfterMs?: number;
  isAlive?: (pid: number) => boolean;
  /** Called once when a renewal finds the lease taken over by another process: the holder must stop acting. */
  onLost?: (by: string) => void;
}

export const DEFAULT_LEASE_RENEW_MS = 1_000;
/** As long as a runner may stay silent before a health check calls it a zombie. */
export const DEFAULT_LEASE_STALE_MS = 30_000;

/**
 * The right to run one plan: at most one process runs or resumes a plan at a
 * time. Taken in one write transaction before anything is dispatched; the
 * holder (pid, host, since when) renews a heartbeat on the clock's timer and
 * releases it at the end. A second taker gets a LeaseHeldError naming the
 * holder, unless the holder has stopped: its process is gone from this host,
 * or its heartbeat (by the journal's clock) is older than `staleAfterMs`. Then
 * the lease is taken over, and the takeover is journaled as an incident.
 */
export class PlanLease {
  private timer: TimerHandle | null = null;
  private held = true;

  private constructor(
    private readonly journal: Journal,
    readonly planId: string,
    readonly token: string,
    private readonly options: LeaseOptions,
  ) {}

  static async acquire(journal: Journal, planId: string, options: LeaseOptions): Promise<PlanLease> {
    const token = randomUUID();
    await journal.acquirePlanLease({
      planId,
      token,
      pid: process.pid,
      host: hostname(),
      kind: options.kind,
      staleAfterMs: options.staleAfterMs ?? DEFAULT_LEASE_STALE_MS,
      isAlive: options.isAlive ?? processAlive,
    });
    const lease = new PlanLease(journal, planId, token, { ...options, clock: wallClockOf(options.clock) });
    lease.schedule();
    return lease;
  }

  /** Beats the heartbeat; false (and onLost) when another process has taken the lease over. */
  async renew(): Promise<boolean> {
    if (!this.held) return false;
    if (await this.journal.renewPlanLease(this.planId, this.token)) return true;
    this.stopTimer();
    this.held = false;
    const holder = await this.journal.planLeaseHolder(this.planId);
    this.options.onLost?.(holder ? describeHolder(holder) : 'nobody (it was released)');
    return false;
  }

  async release(): Promise<void> {
    this.stopTimer();
    if (!this.held) return;
    this.held = false;
    await this.journal.releasePlanLease(this.planId, this.token);
  }

  private schedule(): void {
    this.timer = this.options.clock.setTimeout(() => {
      // A renewal that fails to reach the journal tries again at the next beat; a lease taken over stops here.
      this.renew().then(
        (held) => held && this.schedule(),
        () => this.held && this.schedule(),
      );
    }, this.options.renewEveryMs ?? DEFAULT_LEASE_RENEW_MS);
    // A heartbeat must not keep a finished process alive.
    (this.timer as { timer?: { unref?: () => void } }).timer?.unref?.();
  }

  private stopTimer(): void {
    if (this.timer) this.options.clock.clearTimeout(this.timer);
    this.timer = null;
  }
}
