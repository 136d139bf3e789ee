import { get, run, type Tx } from './tx.js';

/**
 * An operator's control of a fleet plan from a gateway that holds no bot: the request is written on the plan's row,
 * and the bot's holder (a worker in another process) reads it while the plan runs and applies it to its run. A plan
 * still queued is cancelled here at once: no worker has it yet, and `claimNextPlan` takes only queued plans.
 */

export type PlanControlAction = 'pause' | 'resume' | 'cancel';

/** What the holder of a fleet plan is asked to do with its run now: hold it paused, end it, or let it go on. */
export interface PlanControl {
  control: 'pause' | 'cancel' | null;
  reason: string | null;
}

export type PlanControlAnswer =
  /** No plan of that id was queued for a fleet bot (none at all, or one a process runs itself). */
  | { outcome: 'not_fleet' }
  /** Done here: a queued plan was cancelled before any worker took it. */
  | { outcome: 'applied'; status: string }
  /** Written for the bot's holder, which applies it at its next look (a plan interrupted applies it on resume). */
  | { outcome: 'requested'; status: string }
  /** Changes nothing: the plan has ended, or is already as asked. */
  | { outcome: 'refused'; status: string; why: string };

const ENDED = new Set(['succeeded', 'failed', 'rejected', 'cancelled']);

interface Row {
  status: string;
  bot: string | null;
  control: string | null;
}

/** Writes the request on the plan's row, in one transaction; see PlanControlAnswer. */
export function* requestPlanControl(planId: string, action: PlanControlAction, reason: string): Tx<PlanControlAnswer> {
  const plan = yield* get<Row>('SELECT status, bot, control FROM plans WHERE plan_id = ?', planId);
  if (!plan || plan.bot === null) return { outcome: 'not_fleet' };
  if (ENDED.has(plan.status))
    return { outcome: 'refused', status: plan.status, why: `it has already ended (${plan.status})` };
  if (plan.control === 'cancel')
    return { outcome: 'refused', status: plan.status, why: 'it has already been cancelled' };
  if (action === 'cancel') return yield* cancel(planId, plan, reason);
  if (action === 'pause') {
    if (plan.control === 'pause') return { outcome: 'refused', status: plan.status, why: 'it is already paused' };
    return yield* mark(planId, plan.status, 'pause', reason);
  }
  if (plan.control !== 'pause') return { outcome: 'refused', status: plan.status, why: 'it is not paused' };
  return yield* mark(planId, plan.status, null, null);
}

/**
 * A queued plan ends cancelled here; a running or interrupted one is marked for its holder. The queued case is one
 * conditional update: if a worker claimed the plan in between (it is running now), the mark is what is left to do.
 */
function* cancel(planId: string, plan: Row, reason: string): Tx<PlanControlAnswer> {
  if (plan.status === 'queued') {
    const cancelled = yield* run(
      "UPDATE plans SET status = 'cancelled', control = 'cancel', control_reason = ?, updated_at = verbtree_now() WHERE plan_id = ? AND status = 'queued'",
      reason,
      planId,
    );
    if (cancelled > 0) return { outcome: 'applied', status: 'cancelled' };
  }
  return yield* mark(planId, plan.status === 'queued' ? 'running' : plan.status, 'cancel', reason);
}

function* mark(
  planId: string,
  status: string,
  control: PlanControl['control'],
  reason: string | null,
): Tx<PlanControlAnswer> {
  yield* run('UPDATE plans SET control = ?, control_reason = ? WHERE plan_id = ?', control, reason, planId);
  return { outcome: 'requested', status };
}

/** What the plan's holder is asked to do now; null when there is no such plan. */
export function* planControl(planId: string): Tx<PlanControl | null> {
  const row = yield* get<{ control: string | null; control_reason: string | null }>(
    'SELECT control, control_reason FROM plans WHERE plan_id = ?',
    planId,
  );
  return row ? controlOf(row) : null;
}

/** A plan row's control columns as its holder reads them. */
export function controlOf(row: { control: string | null; control_reason: string | null }): PlanControl {
  const control = row.control === 'pause' || row.control === 'cancel' ? row.control : null;
  return { control, reason: row.control_reason };
}
