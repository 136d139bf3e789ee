import type { PlanLeaseRequest } from '../journal.js';
import { LeaseHeldError } from '../plan-conflict.js';
import type { PlanLeaseRow } from '../rows.js';
import { openIncident, resolveIncident } from './record.js';
import { dbNow, get, run, type Tx } from './tx.js';

export function* planLeaseHolder(planId: string): Tx<PlanLeaseRow | undefined> {
  return yield* get<PlanLeaseRow>('SELECT * FROM plan_leases WHERE plan_id = ?', planId);
}

/**
 * Takes the plan's lease: free, or over a holder that stopped (its process gone from this host, or its heartbeat
 * older than `staleAfterMs`), which is journaled as an incident. Each write is conditional on what was read, so two
 * takers racing on PostgreSQL cannot both win: the loser's write changes nothing and it reads the winner.
 */
export function* acquirePlanLease(request: PlanLeaseRequest): Tx<void> {
  const { planId, staleAfterMs } = request;
  const now = yield* dbNow();
  const holder = yield* planLeaseHolder(planId);
  if (!holder) {
    const taken = yield* run(
      'INSERT INTO plan_leases (plan_id, token, pid, host, kind, acquired_at, heartbeat_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
      planId,
      request.token,
      request.pid,
      request.host,
      request.kind,
      now,
      now,
    );
    if (taken === 0) throw held(planId, (yield* planLeaseHolder(planId))!, now, staleAfterMs);
    return;
  }
  const silentMs = now - holder.heartbeat_at;
  const gone = holder.host === request.host && !request.isAlive(holder.pid);
  if (!gone && silentMs <= staleAfterMs) throw held(planId, holder, now, staleAfterMs);
  const taken = yield* run(
    'UPDATE plan_leases SET token = ?, pid = ?, host = ?, kind = ?, acquired_at = ?, heartbeat_at = ? WHERE plan_id = ? AND token = ?',
    request.token,
    request.pid,
    request.host,
    request.kind,
    now,
    now,
    planId,
    holder.token,
  );
  if (taken === 0) throw held(planId, (yield* planLeaseHolder(planId)) ?? holder, now, staleAfterMs);
  const why = gone
    ? `its process ${holder.pid} is gone`
    : `its heartbeat stopped ${Math.round(silentMs / 1000)}s ago (limit ${Math.round(staleAfterMs / 1000)}s)`;
  const id = yield* openIncident({
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
      to: { pid: request.pid, host: request.host, kind: request.kind },
      why,
    },
  });
  yield* resolveIncident(id, `taken over by pid ${request.pid} on ${request.host} (${request.kind}): ${why}`);
}

function held(planId: string, holder: PlanLeaseRow, now: number, staleAfterMs: number): LeaseHeldError {
  const silentMs = now - holder.heartbeat_at;
  return new LeaseHeldError(
    `plan "${planId}" is held by ${describeHolder(holder)} since ${new Date(holder.acquired_at).toISOString()} (last heartbeat ${Math.round(silentMs / 1000)}s ago): ` +
      `two runs of one plan must not act at once; wait for it to end or stop that process (its lease can be taken over ${Math.round(staleAfterMs / 1000)}s after its heartbeat stops)`,
  );
}

export function describeHolder(holder: PlanLeaseRow): string {
  return `pid ${holder.pid} on ${holder.host} (verbtree ${holder.kind})`;
}

export function* renewPlanLease(planId: string, token: string): Tx<boolean> {
  return (
    (yield* run(
      'UPDATE plan_leases SET heartbeat_at = verbtree_now() WHERE plan_id = ? AND token = ?',
      planId,
      token,
    )) > 0
  );
}

export function* releasePlanLease(planId: string, token: string): Tx<void> {
  yield* run('DELETE FROM plan_leases WHERE plan_id = ? AND token = ?', planId, token);
}
