import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Clock } from '../contracts/clock.js';
import { describeExpectation, type Expectation } from '../contracts/expectation.js';
import type { ExecutorEvent } from '../executor/events.js';
import type { BotAccess } from '../operations/bot-access.js';
import { isOperationError } from '../operations/errors.js';
import type { Operations } from '../operations/operations.js';
import { runHasEnded, type RunView } from '../operations/run-view.js';
import type { RunOutcome } from '../operations/runs.js';
import type { ClientEscalations, PendingEscalation } from './escalation.js';
import { ProgressReporter } from './progress.js';
import { issueAt } from '../validate/issue.js';
import {
  endedResult,
  escalationResult,
  invalidArgumentsResult,
  refusalResult,
  runningResult,
  type VerifiedStep,
} from './results.js';
import type { RunWatch } from './run-watch.js';

export type CallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** What every tool call of one server shares. */
export interface CallContext {
  ops: Operations;
  bots: BotAccess;
  /** The bots are a fleet's, held by workers elsewhere: every call names its bot. */
  fleet: boolean;
  /** Aborted as the server closes: a wait for a fleet plan's end stops then. */
  closing: AbortSignal;
  watch: RunWatch;
  clock: Clock;
  /** How long a call waits for a run before it answers with a running handle. */
  blockMs: number;
  progressPerSecond: number;
  escalations?: ClientEscalations;
}

/** The call's progress token, when the client asked for progress. */
function progressFor(ctx: CallContext, extra: CallExtra): ProgressReporter | null {
  const token = extra._meta?.progressToken;
  if (token === undefined) return null;
  return new ProgressReporter(
    ({ progress, message }) =>
      extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress, message } }),
    ctx.clock,
    ctx.progressPerSecond,
  );
}

/**
 * Starts a run for this call and follows it: its events go out as progress, the client's cancellation (or its
 * timeout, which cancels too) cancels the run, and the call answers when the run ends, when its step is held for
 * the client (`--escalate-to-client`), or after `blockMs` with a running handle; from then on the run is no longer
 * this call's: its end no longer cancels it, and get_run follows it.
 */
export async function driveRun(
  ctx: CallContext,
  extra: CallExtra,
  planId: string,
  bot: string | undefined,
  start: (options: {
    signal: AbortSignal;
    stopWaiting?: AbortSignal;
    waitMs: number;
    onEvent: (event: ExecutorEvent) => void;
  }) => Promise<RunOutcome>,
): Promise<CallToolResult> {
  const unnamed = await fleetBotUnnamed(ctx, bot);
  if (unnamed) return unnamed;
  const chosen = await ctx.bots.get(bot);
  const progress = progressFor(ctx, extra);
  const watching = ctx.watch.watch(planId, chosen?.id ?? bot ?? '');
  const owned = new AbortController();
  const forward = () => owned.abort(extra.signal.reason);
  extra.signal.addEventListener('abort', forward, { once: true });
  if (extra.signal.aborted) forward();
  try {
    const running = start({
      signal: owned.signal,
      // A fleet plan's wait reads the journal until its end: the server's close ends it (its session's close, before,
      // cancelled the plan).
      ...(ctx.fleet ? { stopWaiting: ctx.closing } : {}),
      waitMs: ctx.blockMs,
      onEvent: (event) => {
        watching(event);
        progress?.event(event);
      },
    });
    const escalation = await firstOf(ctx, planId, running, owned.signal);
    return await answer(ctx, planId, escalation, ctx.blockMs);
  } finally {
    extra.signal.removeEventListener('abort', forward);
    await progress?.close();
  }
}

/**
 * Follows a run already under way, for up to `waitMs`: its events as progress, and the answer as driveRun's. The
 * client's cancellation ends the wait, not the run (cancel_run does that).
 */
export async function awaitRun(
  ctx: CallContext,
  extra: CallExtra,
  planId: string,
  waitMs: number,
): Promise<CallToolResult> {
  const progress = progressFor(ctx, extra);
  let unfollow = () => undefined as unknown;
  if (progress && waitMs > 0) {
    try {
      unfollow = ctx.ops.follow(planId, progress.event);
    } catch (error) {
      // Not under way here (ended, or another process's): nothing to report as it goes.
      if (!isOperationError(error)) throw error;
    }
  }
  try {
    const escalation =
      waitMs > 0 && !ctx.escalations?.pending(planId)
        ? await firstOf(ctx, planId, ctx.ops.getRun(planId, { waitMs, signal: extra.signal }), extra.signal)
        : undefined;
    return await answer(ctx, planId, escalation, waitMs);
  } finally {
    unfollow();
    await progress?.close();
  }
}

/** Waits for `waiting` or for the plan's step to be held for the client, whichever comes first. */
async function firstOf(
  ctx: CallContext,
  planId: string,
  waiting: Promise<unknown>,
  signal: AbortSignal,
): Promise<PendingEscalation | undefined> {
  if (!ctx.escalations) {
    await waiting;
    return undefined;
  }
  const done = new AbortController();
  const escalated = ctx.escalations.next(planId, AbortSignal.any([done.signal, signal]));
  try {
    return await Promise.race([
      waiting.then(() => undefined),
      // Resolved empty only when the wait is over anyway: `waiting` then answers, alone.
      escalated.then((held) => held ?? new Promise<never>(() => undefined)),
    ]);
  } finally {
    done.abort();
  }
}

/** The call's answer: the run's end, its held failure, or a running handle. */
async function answer(
  ctx: CallContext,
  planId: string,
  escalation: PendingEscalation | undefined,
  waitedMs: number,
): Promise<CallToolResult> {
  const view = await ctx.ops.getRun(planId);
  if (runHasEnded(view)) return endedResult(view, await verifiedOf(ctx, view));
  const held = escalation ?? ctx.escalations?.pending(planId);
  if (held)
    return escalationResult(
      held,
      view.bot,
      ctx.watch.expectsOf(planId, held.stepId),
      ctx.escalations?.leftMs(held) ?? 0,
    );
  return runningResult(view, waitedMs);
}

/**
 * On a fleet every call that acts names its bot: undefined when this one does (or the bots are this process's), else
 * the result naming the fleet's bots (or saying how a bot joins an empty fleet).
 */
export async function fleetBotUnnamed(ctx: CallContext, bot: string | undefined): Promise<CallToolResult | undefined> {
  if (!ctx.fleet || bot !== undefined) return undefined;
  const why = await ctx.bots.noneNamed?.();
  if (!why) return undefined;
  const bots = why.details.bots as string[] | undefined;
  if (!bots) return refusalResult(why);
  return invalidArgumentsResult([
    issueAt(
      'schema_violation',
      ['bot'],
      `is required on a fleet gateway: name the bot to act with, one of ${bots.join(', ')} (list_bots shows each with its holder)`,
    ),
  ]);
}

/**
 * What each succeeded step of an ended run was verified to do: from its result when it ended in this process, else
 * (a fleet worker's run, or an older one) from the expectations the journal holds for each step it journaled ended ok.
 */
export async function verifiedOf(ctx: { ops: Operations; watch: RunWatch }, view: RunView): Promise<VerifiedStep[]> {
  if (view.result) return ctx.watch.verified(view.result);
  if (view.status !== 'succeeded') return [];
  const { provenance } = await ctx.ops.provenance(view.planId, { limit: 1000 });
  return provenance.steps
    .filter(({ step }) => step.status === 'succeeded')
    .map(({ step }) => {
      const expects = step.expectations ? (JSON.parse(step.expectations) as Expectation[]) : [];
      return {
        stepId: step.step_id,
        verb: step.verb,
        ...(step.parent_step_id ? { parentStepId: step.parent_step_id } : {}),
        verified: expects.map(describeExpectation),
        expects,
      };
    });
}
