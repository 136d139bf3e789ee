import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Clock, TimerHandle } from '../contracts/clock.js';
import type { Journal } from './journal.js';
import { PlanConflictError } from './plan-conflict.js';
import { processAlive } from './process-alive.js';
import type { PlanLeaseRow } from './rows.js';

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

/** Another live process holds the plan: a second run or resume of it must not act. */
export class LeaseHeldError extends PlanConflictError {
  override name = 'LeaseHeldError';
}

/**
 * The right to run one plan: at most one process runs or resumes a plan at a
 * time. Taken in one write transaction before anything is dispatched; the
 * holder (pid, host, since when) renews a heartbeat on the clock's timer and
 * releases it at the end. A second taker gets a LeaseHeldError naming the
 * holder, unless the holder has stopped: its process is gone from this host,
 * or its heartbeat is older than `staleAfterMs`. Then the lease is taken over,
 * and the takeover is journaled as an incident.
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

  static acquire(journal: Journal, planId: string, options: LeaseOptions): PlanLease {
    const token = randomUUID();
    const staleAfterMs = options.staleAfterMs ?? DEFAULT_LEASE_STALE_MS;
    const isAlive = options.isAlive ?? processAlive;
    const here = hostname();
    journal.write(() => {
      const now = journal.now();
      const holder = journal.sql('SELECT * FROM plan_leases WHERE plan_id = ?').get(planId) as PlanLeaseRow | undefined;
      if (holder) {
        const silentMs = now - holder.heartbeat_at;
        const gone = holder.host === here && !isAlive(holder.pid);
        if (!gone && silentMs <= staleAfterMs) {
          throw new LeaseHeldError(
            `plan "${planId}" is held by ${describeHolder(holder)} since ${new Date(holder.acquired_at).toISOString()} (last heartbeat ${Math.round(silentMs / 1000)}s ago): ` +
              `two runs of one plan must not act at once; wait for it to end or stop that process (its lease can be taken over ${Math.round(staleAfterMs / 1000)}s after its heartbeat stops)`,
          );
        }
        const why = gone
          ? `its process ${holder.pid} is gone`
          : `its heartbeat stopped ${Math.round(silentMs / 1000)}s ago (limit ${Math.round(staleAfterMs / 1000)}s)`;
        const id = journal.openIncident({
          planId,
          mode: 'lease_takeover',
          details: {
            from: {
              pid: holder.pid,
              host: holder.host,
              kind: holder.kind,
              acquiredAt: holder.acquired_at,
              heartbeatAt: holder.heartbeat_at,
            },
            to: { pid: process.pid, host: here, kind: options.kind },
            why,
          },
          at: now,
        });
        journal.resolveIncident(id, `taken over by pid ${process.pid} on ${here} (${options.kind}): ${why}`, now);
      }
      journal
        .sql(
          'INSERT OR REPLACE INTO plan_leases (plan_id, token, pid, host, kind, acquired_at, heartbeat_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        )
        .run(planId, token, process.pid, here, options.kind, now, now);
    });
    const lease = new PlanLease(journal, planId, token, options);
    lease.schedule();
    return lease;
  }

  /** Beats the heartbeat; false (and onLost) when another process has taken the lease over. */
  renew(): boolean {
    if (!this.held) return false;
    const changed = this.journal
      .sql('UPDATE plan_leases SET heartbeat_at = ? WHERE plan_id = ? AND token = ?')
      .run(this.journal.now(), this.planId, this.token).changes;
    if (changed > 0) return true;
    this.stopTimer();
    this.held = false;
    const holder = this.journal.sql('SELECT * FROM plan_leases WHERE plan_id = ?').get(this.planId) as
      PlanLeaseRow | undefined;
    this.options.onLost?.(holder ? describeHolder(holder) : 'nobody (it was released)');
    return false;
  }

  release(): void {
    this.stopTimer();
    if (!this.held) return;
    this.held = false;
    if (this.journal.db.open)
      this.journal.sql('DELETE FROM plan_leases WHERE plan_id = ? AND token = ?').run(this.planId, this.token);
  }

  private schedule(): void {
    this.timer = this.options.clock.setTimeout(() => {
      if (this.renew()) this.schedule();
    }, this.options.renewEveryMs ?? DEFAULT_LEASE_RENEW_MS);
    // A heartbeat must not keep a finished process alive.
    (this.timer as { timer?: { unref?: () => void } }).timer?.unref?.();
  }

  private stopTimer(): void {
    if (this.timer) this.options.clock.clearTimeout(this.timer);
    this.timer = null;
  }
}

function describeHolder(holder: PlanLeaseRow): string {
  return `pid ${holder.pid} on ${holder.host} (verbtree ${holder.kind})`;
}
