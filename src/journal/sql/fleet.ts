import type { BotView, EnqueueAnswer, Fence, QueuedPlan } from '../rows.js';
import { STATUS_COLUMNS, statusOf, type StatusColumns } from './bot-status.js';
import { keyCompleted } from './ledger.js';
import { controlOf } from './plan-control.js';
import { closeAttempt, moveStep } from './record.js';
import { all, get, json, run, type Tx } from './tx.js';

/**
 * The fleet: bots belong to the journal, each under a lease whose expiry the database's clock sets (`verbtree_now()`:
 * the server's on PostgreSQL), and whose epoch every claim bumps, so writes fenced by an older epoch are refused.
 * Lease rows are never deleted: a released lease keeps its epoch, which only grows.
 */

export class UnknownBotError extends Error {
  override name = 'UnknownBotError';

  constructor(
    readonly bot: string,
    readonly bots: readonly string[],
  ) {
    super(
      `no bot "${bot}" in the fleet; its bots are ${bots.length > 0 ? bots.join(', ') : 'none yet'} (a worker adds one with --bot <name>)`,
    );
  }
}

export function* botNames(): Tx<string[]> {
  return (yield* all<{ name: string }>('SELECT name FROM bots ORDER BY name')).map((b) => b.name);
}

function* requireBot(bot: string): Tx<void> {
  if (!(yield* get<{ name: string }>('SELECT name FROM bots WHERE name = ?', bot)))
    throw new UnknownBotError(bot, yield* botNames());
}

export function* addBot(bot: { name: string; settings?: unknown }): Tx<void> {
  yield* run(
    'INSERT INTO bots (name, added_at, settings) VALUES (?, verbtree_now(), ?) ON CONFLICT DO NOTHING',
    bot.name,
    bot.settings === undefined ? null : json(bot.settings),
  );
}

export function* listBots(): Tx<BotView[]> {
  const rows = yield* all<
    {
      name: string;
      added_at: number;
      settings: string | null;
      holder: string | null;
      epoch: number;
      expires_at: number | null;
      claimed_at: number | null;
      held: number;
      plan: string | null;
      plan_since: number | null;
      queued: number;
      next_queued: string | null;
      next_queued_at: number | null;
    } & StatusColumns
  >(
    `SELECT b.name, b.added_at, b.settings, l.holder, COALESCE(l.epoch, 0) AS epoch, l.expires_at, l.claimed_at,
       CASE WHEN l.holder IS NOT NULL AND l.expires_at > verbtree_now() THEN 1 ELSE 0 END AS held,
       (SELECT p.plan_id FROM plans p WHERE p.bot = b.name AND p.status IN ('running', 'interrupted') ORDER BY p.updated_at DESC LIMIT 1) AS plan,
       (SELECT p.updated_at FROM plans p WHERE p.bot = b.name AND p.status IN ('running', 'interrupted') ORDER BY p.updated_at DESC LIMIT 1) AS plan_since,
       (SELECT COUNT(*) FROM plans p WHERE p.bot = b.name AND p.status = 'queued') AS queued,
       (SELECT p.plan_id FROM plan_queue q JOIN plans p ON p.plan_id = q.plan_id WHERE q.bot = b.name AND p.status = 'queued' ORDER BY q.id LIMIT 1) AS next_queued,
       (SELECT p.created_at FROM plan_queue q JOIN plans p ON p.plan_id = q.plan_id WHERE q.bot = b.name AND p.status = 'queued' ORDER BY q.id LIMIT 1) AS next_queued_at,
       ${STATUS_COLUMNS}
     FROM bots b LEFT JOIN bot_leases l ON l.bot = b.name
       LEFT JOIN bot_status s ON s.bot = b.name AND s.epoch = l.epoch
     ORDER BY b.name`,
  );
  return rows.map((r) => ({
    name: r.name,
    addedAt: r.added_at,
    settings: r.settings === null ? null : (JSON.parse(r.settings) as unknown),
    holder: r.holder,
    epoch: Number(r.epoch),
    expiresAt: r.expires_at,
    claimedAt: r.claimed_at,
    held: Number(r.held) === 1,
    plan: r.plan,
    planSince: r.plan_since === null ? null : Number(r.plan_since),
    queued: Number(r.queued),
    nextQueued: r.next_queued === null ? null : { planId: r.next_queued, queuedAt: Number(r.next_queued_at) },
    status: statusOf(r),
  }));
}

/**
 * Takes the bot when its lease is free or expired: two workers claiming at once cannot both win. The new epoch, or
 * null when held, or when its lease row is locked right now (`skipLocked`: PostgreSQL's `FOR UPDATE SKIP LOCKED`; ''
 * on SQLite, whose writers take turns). A claim never waits for a row lock: the lock may be a transaction of a holder
 * cut off from the database (its fence check's share lock, its renewal's update), which holds it until the server
 * ends that session, and a claim queued behind it would stall this worker's whole claim round; a bot skipped is
 * tried again at the next claim.
 */
export function* claimBot(bot: string, holder: string, ttlMs: number, skipLocked: string): Tx<number | null> {
  yield* requireBot(bot);
  const taken = yield* get<{ epoch: number }>(
    `UPDATE bot_leases SET holder = ?, epoch = epoch + 1, expires_at = verbtree_now() + ?,
       claimed_at = verbtree_now(), renewed_at = verbtree_now()
     WHERE bot = (SELECT bot FROM bot_leases WHERE bot = ? AND (holder IS NULL OR expires_at <= verbtree_now()) ${skipLocked})
     RETURNING epoch`,
    holder,
    ttlMs,
    bot,
  );
  if (taken) return Number(taken.epoch);
  // Never claimed before: the first claim makes its row (a row that exists, held or locked, is left alone).
  const first = yield* get<{ epoch: number }>(
    `INSERT INTO bot_leases (bot, holder, epoch, expires_at, claimed_at, renewed_at)
     VALUES (?, ?, 1, verbtree_now() + ?, verbtree_now(), verbtree_now()) ON CONFLICT (bot) DO NOTHING RETURNING epoch`,
    bot,
    holder,
    ttlMs,
  );
  return first ? Number(first.epoch) : null;
}

/** Every unexpired lease of the holder, extended in one statement; an expired one is not revived (claim it again). */
export function* renewLeases(holder: string, ttlMs: number): Tx<Fence[]> {
  const rows = yield* all<{ bot: string; epoch: number }>(
    'UPDATE bot_leases SET expires_at = verbtree_now() + ?, renewed_at = verbtree_now() WHERE holder = ? AND expires_at > verbtree_now() RETURNING bot, epoch',
    ttlMs,
    holder,
  );
  return rows.map((r) => ({ bot: r.bot, epoch: Number(r.epoch) })).sort((a, b) => a.bot.localeCompare(b.bot));
}

/** Gives the bot back; false when the lease had already moved on. */
export function* releaseBot(fence: Fence & { holder: string }): Tx<boolean> {
  const changed = yield* run(
    'UPDATE bot_leases SET holder = NULL, expires_at = NULL, renewed_at = verbtree_now() WHERE bot = ? AND holder = ? AND epoch = ?',
    fence.bot,
    fence.holder,
    fence.epoch,
  );
  return changed > 0;
}

/** Queues a plan for a bot, once per planId: a second enqueue (a client's retry) changes nothing. */
export function* enqueuePlan(plan: {
  planId: string;
  intentId: string;
  bot: string;
  body: unknown;
}): Tx<EnqueueAnswer> {
  if (!(yield* get<{ name: string }>('SELECT name FROM bots WHERE name = ?', plan.bot)))
    return { queued: false, unknownBot: true, bots: yield* botNames() };
  const inserted = yield* run(
    "INSERT INTO plans (plan_id, intent_id, body, status, bot, created_at, updated_at) VALUES (?, ?, ?, 'queued', ?, verbtree_now(), verbtree_now()) ON CONFLICT DO NOTHING",
    plan.planId,
    plan.intentId,
    JSON.stringify(plan.body),
    plan.bot,
  );
  if (inserted === 0) {
    const existing = yield* get<{ bot: string | null; status: string }>(
      'SELECT bot, status FROM plans WHERE plan_id = ?',
      plan.planId,
    );
    return { queued: false, existing: existing ?? { bot: null, status: 'unknown' } };
  }
  yield* run('INSERT INTO plan_queue (plan_id, bot, enqueued_at) VALUES (?, ?, verbtree_now())', plan.planId, plan.bot);
  return { queued: true };
}

/**
 * What the bot's holder runs next: the plan a previous holder left running or interrupted (to resume), else the
 * oldest queued one, now marked running (the partial unique index keeps one running plan per bot); with what an
 * operator asked of it through a gateway so far, so that its holder needs no read of its own before it starts it.
 */
export function* claimNextPlan(fence: Fence): Tx<QueuedPlan | null> {
  // One read for both: the unfinished plan first (rank 0), else the oldest queued.
  const row = yield* get<{
    plan_id: string;
    intent_id: string | null;
    body: string | null;
    control: string | null;
    control_reason: string | null;
    rank: number;
  }>(
    `SELECT plan_id, intent_id, body, control, control_reason, rank FROM (
       SELECT plan_id, intent_id, body, control, control_reason, 0 AS rank, updated_at AS turn FROM plans
         WHERE bot = ? AND status IN ('running', 'interrupted')
       UNION ALL
       SELECT p.plan_id, p.intent_id, p.body, p.control, p.control_reason, 1 AS rank, q.id AS turn
         FROM plan_queue q JOIN plans p ON p.plan_id = q.plan_id WHERE q.bot = ? AND p.status = 'queued'
     ) AS next ORDER BY rank, turn LIMIT 1`,
    fence.bot,
    fence.bot,
  );
  if (!row) return null;
  const resume = Number(row.rank) === 0;
  if (!resume) {
    const taken = yield* run(
      "UPDATE plans SET status = 'running', updated_at = verbtree_now() WHERE plan_id = ? AND status = 'queued'",
      row.plan_id,
    );
    // Cancelled from a gateway between the read and the update: not this holder's to run; the next call reads again.
    if (taken === 0) return null;
  }
  return {
    planId: row.plan_id,
    intentId: row.intent_id,
    body: row.body === null ? null : (JSON.parse(row.body) as unknown),
    resume,
    control: controlOf(row),
  };
}

/** The bots `holder` holds a lease of (live or not: the holder judges that) that have a plan queued. */
export function* queuedBots(holder: string): Tx<string[]> {
  const rows = yield* all<{ bot: string }>(
    "SELECT DISTINCT p.bot FROM bot_leases l JOIN plans p ON p.bot = l.bot WHERE l.holder = ? AND p.status = 'queued' ORDER BY p.bot",
    holder,
  );
  return rows.map((r) => r.bot);
}

/** Why a bot's plan stopped short: its holder lost or gave up the lease (`lease_lost`), or died (`interrupted`). */
export interface Interruption {
  code: 'lease_lost' | 'interrupted';
  reason: string;
}

/**
 * Ends what a bot's plan had under way without ending the plan: its in-flight idempotency claims are given back, each
 * step in progress closes its open attempt with the interruption and returns to pending (or is succeeded, when its key
 * had completed: its effect is known to have happened), its open runs end, and a running plan becomes interrupted.
 * The bot's next holder resumes it, checking each interrupted step against the live world. The steps it moved.
 */
export function* interruptPlan(planId: string, why: Interruption): Tx<string[]> {
  const steps = yield* all<{ step_id: string; idempotency_key: string | null }>(
    "SELECT step_id, idempotency_key FROM steps WHERE plan_id = ? AND status = 'in_progress' ORDER BY seq",
    planId,
  );
  // Every claim of the plan still in flight is its stopped holder's (the caller holds the bot now, or is that holder
  // giving it up): one whose step never journaled its start never acted, since a step acts only once that is durable.
  yield* run("DELETE FROM idempotency WHERE plan_id = ? AND state = 'in_flight'", planId);
  for (const step of steps) {
    yield* closeAttempt(planId, step.step_id, why.code, why.reason);
    const key = step.idempotency_key;
    const done = key !== null && (yield* keyCompleted(key));
    yield* run(
      'UPDATE steps SET failure_count = failure_count + 1 WHERE plan_id = ? AND step_id = ?',
      planId,
      step.step_id,
    );
    const reason = `${why.code}: ${why.reason}${done ? `; its idempotency key "${key}" had completed` : ''}`;
    yield* moveStep(planId, step.step_id, done ? 'succeeded' : 'pending', reason, null);
  }
  yield* run(
    'UPDATE runs SET ended_at = verbtree_now(), ok = 0, code = ?, detail = ? WHERE plan_id = ? AND ended_at IS NULL',
    why.code,
    why.reason,
    planId,
  );
  yield* run(
    "UPDATE plans SET status = 'interrupted', updated_at = verbtree_now() WHERE plan_id = ? AND status = 'running'",
    planId,
  );
  return steps.map((s) => s.step_id);
}
