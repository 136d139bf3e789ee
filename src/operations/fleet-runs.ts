import type { ExecutorEvent } from '../executor/events.js';
import { errorText } from '../executor/user-code.js';
import { isOperationError, noJournaledPlan, noLiveRun, OperationError } from './errors.js';
import type { RunListener } from './run-book.js';
import { ENDED_STATUSES, journalRunView, MAX_VIEW_STEPS, type RunView } from './run-view.js';
import type { ControlAction, ControlAnswer, RunContext, RunOutcome, StartedRun } from './runs.js';
import { anyOf, within } from './wait.js';

/**
 * A plan on a fleet bot, as a gateway follows it: a worker in another process runs it, so its end, its events and any
 * control of it go through the shared journal. Nothing else is trusted to say it ended.
 */

/** How often a wait for a run of another process reads the journal. */
export const JOURNAL_POLL_MS = 250;

/** Where a fleet bot's plan has ended: `interrupted` is not an end there, since the bot's next holder resumes it. */
const FLEET_ENDED = new Set(['succeeded', 'failed', 'rejected', 'cancelled']);

/** The most events one poll hands on; the rest come at the next poll. */
const EVENTS_PER_POLL = 500;

export async function journalView(ctx: RunContext, planId: string): Promise<RunView> {
  const found = await ctx.journal.provenance(planId, { offset: 0, limit: MAX_VIEW_STEPS });
  if (!found) throw noJournaledPlan(planId);
  return journalRunView(found);
}

/**
 * Waits for a plan another process runs to end, reading the shared journal every `JOURNAL_POLL_MS`, for at most
 * `waitMs` (undefined: until it ends) and no longer than `signal` stays unaborted; `onPoll` runs after each read of
 * its status. True when it ended.
 */
export async function awaitJournaled(
  ctx: RunContext,
  planId: string,
  waitMs: number | undefined,
  signal?: AbortSignal,
  onPoll?: () => Promise<void>,
): Promise<boolean> {
  const deadline = waitMs === undefined ? Infinity : ctx.clock.now() + waitMs;
  for (;;) {
    const plan = await ctx.journal.planStatus(planId);
    if (!plan) throw noJournaledPlan(planId);
    // Read after the status: a plan read as ended has every event up to its end journaled.
    await onPoll?.();
    const ended =
      plan.bot === null ? ENDED_STATUSES.includes(plan.status as RunView['status']) : FLEET_ENDED.has(plan.status);
    if (ended) return true;
    const left = deadline - ctx.clock.now();
    if (left <= 0 || signal?.aborted) return false;
    await within(NEVER, ctx.clock, Math.min(JOURNAL_POLL_MS, left), signal);
  }
}

/** A promise that never settles: `within` it is a plain wait on the clock. */
const NEVER = new Promise<never>(() => undefined);

/** Hands the plan's journaled events to `listener`, those journaled since the last call, oldest first. */
function journaledEvents(ctx: RunContext, planId: string, listener: RunListener): () => Promise<void> {
  let after = 0;
  return async () => {
    const page = await ctx.journal.events(planId, { after, limit: EVENTS_PER_POLL });
    for (const row of page?.rows ?? []) {
      after = row.id;
      listener(row.event as ExecutorEvent);
    }
  };
}

export interface FleetWait {
  waitMs: number | undefined;
  /** The caller's: aborting it cancels the plan through the journal, as a local run's caller cancels its run. */
  signal?: AbortSignal;
  /** Aborting it ends the wait only. */
  stopWaiting?: AbortSignal;
  /** The plan's events as its holder journals them, read at each poll. */
  onEvent?: RunListener;
}

/**
 * Waits for a queued fleet plan's end through the journal, answering the run as the journal holds it. The caller's
 * `signal` cancels the plan (a queued one at once, a running one by its holder at its next look), and the wait goes
 * on for the end that cancel journals, within what is left of `waitMs`.
 */
export async function followFleetRun(ctx: RunContext, started: StartedRun, wait: FleetWait): Promise<RunOutcome> {
  const { planId, bot } = started;
  const from = ctx.clock.now();
  const poll = wait.onEvent ? journaledEvents(ctx, planId, wait.onEvent) : undefined;
  let ended = await awaitJournaled(ctx, planId, wait.waitMs, anyOf(wait.signal, wait.stopWaiting), poll);
  // The caller's abort cancels, even when the wait was also stopped meanwhile (a server closing its sessions, then itself).
  if (!ended && wait.signal?.aborted) {
    await cancelForCaller(ctx, planId, wait.signal.reason);
    const left = wait.waitMs === undefined ? undefined : Math.max(0, from + wait.waitMs - ctx.clock.now());
    ended = await awaitJournaled(ctx, planId, left, wait.stopWaiting, poll);
  }
  return ended
    ? { status: 'ended', planId, bot, result: null, run: await journalView(ctx, planId) }
    : { status: 'running', planId, bot };
}

/** The caller went away: its plan is cancelled, unless it ended (or was cancelled) meanwhile. */
async function cancelForCaller(ctx: RunContext, planId: string, reason: unknown): Promise<void> {
  try {
    await controlFleetPlan(ctx, planId, 'cancel', `cancelled by its caller: ${errorText(reason ?? 'aborted')}`);
  } catch (error) {
    if (!isOperationError(error) || error.kind !== 'conflict') throw error;
  }
}

/** The longest reason a control action keeps (it is journaled with the event). */
const MAX_REASON = 500;
export const reasonOf = (reason: string | undefined) =>
  reason === undefined ? undefined : reason.slice(0, MAX_REASON);

/** The operator's reason a fleet plan's holder journals, when the caller gave none. */
const FLEET_CONTROL_REASON = 'by the operator (through a gateway)';
const PAST = { pause: 'paused', resume: 'resumed', cancel: 'cancelled' } as const;

/** A control action on a plan no run of this process holds: through the journal, for the bot's holder to apply. */
export async function controlFleetPlan(
  ctx: RunContext,
  planId: string,
  action: ControlAction,
  reason: string | undefined,
): Promise<ControlAnswer> {
  if (action === 'replace') {
    const plan = await ctx.journal.planStatus(planId);
    if (plan?.bot)
      throw new OperationError(
        'conflict',
        `plan "${planId}" runs on fleet bot ${plan.bot} in a worker's process, where replace does not reach: cancel it and queue the steps still wanted as a new plan`,
        { field: 'planId' },
      );
    throw noLiveRun(planId);
  }
  const answer = await ctx.journal.controlPlan(
    planId,
    action,
    reasonOf(reason) ?? `${PAST[action]} ${FLEET_CONTROL_REASON}`,
  );
  switch (answer.outcome) {
    case 'not_fleet':
      throw noLiveRun(planId);
    case 'refused':
      throw new OperationError('conflict', `plan "${planId}" cannot be ${PAST[action]}: ${answer.why}`, {
        status: answer.status,
      });
    case 'applied':
    case 'requested':
      return { planId, action, pending: answer.outcome === 'requested' };
  }
}
