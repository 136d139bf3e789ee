import type { Clock } from '../contracts/clock.js';
import type { PlanStepInput } from '../contracts/plan-step.js';
import type { PlanResult } from '../executor/events.js';
import type { ExecutionRun } from '../executor/executor.js';
import { errorText } from '../executor/user-code.js';
import { PlanConflictError } from '../journal/plan-conflict.js';
import type { CapabilityRegistry } from '../registry/registry.js';
import { validatePlan } from '../validate/validate-plan.js';
import { noLiveRun, OperationError, wholeNumber } from './errors.js';
import { awaitJournaled, controlFleetPlan, followFleetRun, journalView, reasonOf } from './fleet-runs.js';
import { isQueuedBot, type Awaitable, type BotAccess, type QueuedBot } from './bot-access.js';
import type { OperationsJournal } from './journal-port.js';
import type { RunBook, RunListener, TrackedRun } from './run-book.js';
import type { RunView } from './run-view.js';
import { anyOf, within } from './wait.js';

export { JOURNAL_POLL_MS } from './fleet-runs.js';
export { noJournaledPlan } from './errors.js';

export interface RunContext {
  registry: CapabilityRegistry;
  bots: BotAccess;
  book: RunBook;
  clock: Clock;
  journal: OperationsJournal;
}

export interface StartOptions {
  /** The bot to run it; default the first. */
  bot?: string;
  /** Follows the run's events from its first: attached before the run can emit any. */
  onEvent?: RunListener;
}

export interface StartedRun {
  planId: string;
  bot: string;
  /** How many steps the plan holds. */
  steps: number;
  /**
   * On a fleet bot (a gateway): true when this call queued the plan for the bot's holder, false when the same plan
   * was queued before (a retry: nothing new was queued). Absent for a bot of this process.
   */
  queued?: boolean;
}

/** How a run call ended: the plan's result, or (its wait limit passed) a handle getRun follows. */
export type RunOutcome =
  | { status: 'ended'; planId: string; bot: string; result: PlanResult }
  /** A fleet worker's run, as the shared journal holds it: its executor's result stayed in that worker. */
  | { status: 'ended'; planId: string; bot: string; result: null; run: RunView }
  | { status: 'running'; planId: string; bot: string };

/** The longest a caller may wait for a run in one call: an hour. */
const MAX_WAIT_MS = 3_600_000;

/**
 * Starts a plan and returns at once: refused (nothing started) when no bot is attached (`unavailable`), the
 * input is an intent (no planner here) or the plan does not validate (`rejected`, every issue), or another run
 * holds the plan (`conflict`).
 */
export async function startRun(ctx: RunContext, input: unknown, options: StartOptions = {}): Promise<StartedRun> {
  return (await begin(ctx, input, options)).started;
}

async function begin(
  ctx: RunContext,
  input: unknown,
  options: StartOptions,
): Promise<{ started: StartedRun; tracked: TrackedRun | null }> {
  const bot = await ctx.bots.get(options.bot);
  if (!bot)
    throw (
      (await ctx.bots.noneNamed?.()) ??
      new OperationError(
        'unavailable',
        'no bot attached: this process was started without a world; start it with one (--world sim) to execute plans',
      )
    );
  if (input && typeof input === 'object' && 'goal' in input)
    throw new OperationError(
      'rejected',
      'this server has no planner: send a plan ({ "planId", "intentId", "steps" }), not an intent',
    );
  const report = validatePlan(input, ctx.registry);
  if (!report.ok)
    throw new OperationError('rejected', `invalid plan: ${issuesLine(report.issues)}`, { issues: report.issues });
  const started = { planId: report.plan.planId, bot: bot.id, steps: report.steps.length };
  if (isQueuedBot(bot)) return { started: await queue(bot, report.plan, input, started), tracked: null };
  let run: ExecutionRun;
  try {
    run = await bot.run(input);
  } catch (error) {
    if (error instanceof PlanConflictError) throw new OperationError('conflict', error.message);
    throw error;
  }
  const tracked = ctx.book.add(report.plan.planId, bot.id, run);
  if (options.onEvent) tracked.follow(options.onEvent);
  return { started, tracked };
}

/** Queues the plan, as posted, for the fleet bot's holder (which validates it again before it runs it). */
async function queue(
  bot: QueuedBot,
  plan: { planId: string; intentId: string },
  input: unknown,
  started: StartedRun,
): Promise<StartedRun> {
  const answer = await bot.queue({ planId: plan.planId, intentId: plan.intentId, body: input });
  return { ...started, queued: answer.queued };
}

export interface RunOptions extends StartOptions {
  /**
   * Aborting it cancels the run: the running step ends `aborted`, and the call returns the ended run (on a fleet bot
   * the cancel goes through the journal to its holder, and the call waits for that end within `waitMs`).
   */
  signal?: AbortSignal;
  /** Return `{ status: 'running' }` if the plan has not ended within this many ms; default: wait for its end. */
  waitMs?: number;
  /** Aborting it ends the wait, never the run (the call answers `running`): its caller went away. */
  stopWaiting?: AbortSignal;
}

/** Starts a plan and waits for its end (refused as `startRun` is). */
export async function runToEnd(ctx: RunContext, input: unknown, options: RunOptions = {}): Promise<RunOutcome> {
  const waitMs =
    options.waitMs === undefined
      ? undefined
      : wholeNumber(options.waitMs, 'waitMs', { min: 0, max: MAX_WAIT_MS, fallback: 0 });
  const { started, tracked } = await begin(ctx, input, options);
  const { signal } = options;
  // A fleet worker runs it: its end is read back from the shared journal, and a cancel goes there.
  if (!tracked) return followFleetRun(ctx, started, { ...options, waitMs });
  const cancel = () => tracked.run.cancel(`cancelled by its caller: ${errorText(signal?.reason ?? 'aborted')}`);
  signal?.addEventListener('abort', cancel, { once: true });
  if (signal?.aborted) cancel();
  try {
    const result = await within(tracked.ended, ctx.clock, waitMs, anyOf(signal, options.stopWaiting));
    // Aborted, the run was cancelled and ends at once (its step `aborted`): the call answers with that end.
    const ended = result ?? (signal?.aborted ? await tracked.ended : undefined);
    return ended
      ? { status: 'ended', planId: started.planId, bot: started.bot, result: ended }
      : { status: 'running', planId: started.planId, bot: started.bot };
  } finally {
    // Past the call, its caller's signal no longer reaches the run: getRun follows it, cancel ends it.
    signal?.removeEventListener('abort', cancel);
  }
}

export interface GetRunOptions {
  /** Wait up to this many ms for the run to end before answering (another process's: read from the journal). */
  waitMs?: number;
  /** Stops the wait (not the run). */
  signal?: AbortSignal;
}

/** A run's status, steps and failure: this process's own runs as they go, any other as the journal holds it. */
export async function getRun(ctx: RunContext, planId: string, options: GetRunOptions = {}): Promise<RunView> {
  const waitMs = wholeNumber(options.waitMs, 'waitMs', { min: 0, max: MAX_WAIT_MS, fallback: 0 });
  const tracked = ctx.book.get(planId);
  if (tracked) {
    if (waitMs > 0 && !tracked.hasEnded) await within(tracked.ended, ctx.clock, waitMs, options.signal);
    return tracked.hasEnded ? withRetractions(ctx, tracked.view()) : tracked.view();
  }
  if (waitMs > 0) await awaitJournaled(ctx, planId, waitMs, options.signal);
  return journalView(ctx, planId);
}

/**
 * An ended run of this process as it went, with the steps a server's restart undid since (journaled `retracted` when
 * its bot came back): only the journal knows of them, and its view would say ok of what the world no longer holds.
 */
async function withRetractions(ctx: RunContext, view: RunView): Promise<RunView> {
  const journaled = await journalView(ctx, view.planId).catch(() => null);
  const retracted = new Map(journaled?.steps.filter((s) => s.status === 'retracted').map((s) => [s.stepId, s]));
  if (retracted.size === 0) return view;
  return { ...view, steps: view.steps.map((step) => retracted.get(step.stepId) ?? step) };
}

/** Follows a run this process started, from now until it ends; returns how to stop. */
export function followRun(ctx: RunContext, planId: string, listener: RunListener): () => void {
  const tracked = ctx.book.get(planId);
  if (!tracked) throw noLiveRun(planId);
  return tracked.follow(listener);
}

export const CONTROL_ACTIONS = ['pause', 'resume', 'cancel', 'replace'] as const;
export type ControlAction = (typeof CONTROL_ACTIONS)[number];

export interface ControlAnswer {
  planId: string;
  action: ControlAction;
  /** After a replace: how many steps now remain after the running one. */
  steps?: number;
  /**
   * On a fleet plan (a gateway's): true when the bot's holder, a worker in another process, applies the action at its
   * next look at the journal (within its poll interval; the run's events show when); false when it was done here (a
   * queued plan cancelled before any worker took it).
   */
  pending?: boolean;
}

/** Pauses a run under way here at its next safe point; `conflict` when it is already paused. */
export function pauseRun(ctx: RunContext, planId: string, reason?: string): Promise<ControlAnswer> {
  return control(ctx, planId, 'pause', reason, (run) => {
    if (!run.pause(reasonOf(reason)))
      throw new OperationError('conflict', `plan "${planId}" is already paused or has ended`);
  });
}

/** Lets a paused run go on; `conflict` when it is not paused. */
export function resumeRun(ctx: RunContext, planId: string): Promise<ControlAnswer> {
  return control(ctx, planId, 'resume', undefined, (run) => {
    if (!run.resume()) throw new OperationError('conflict', `plan "${planId}" is not paused`);
  });
}

/** Ends a run: its running step ends `aborted`, no further step starts; `conflict` when already cancelled. */
export function cancelRun(ctx: RunContext, planId: string, reason?: string): Promise<ControlAnswer> {
  return control(ctx, planId, 'cancel', reason, (run) => {
    if (!run.cancel(reasonOf(reason)))
      throw new OperationError('conflict', `plan "${planId}" has already ended or been cancelled`);
  });
}

/**
 * Replaces the steps not yet started (the running one finishes first); an empty list ends the plan after its
 * running step. A replacement that does not validate is `rejected` with every issue, and changes nothing.
 */
export function replaceRemaining(ctx: RunContext, planId: string, steps: unknown): Promise<ControlAnswer> {
  return control(ctx, planId, 'replace', undefined, (run) => {
    if (!Array.isArray(steps))
      throw new OperationError(
        'invalid',
        'steps must be a list of plan steps (an empty list ends the plan after its running step)',
        { field: 'steps' },
      );
    const answer = run.replaceRemaining(steps as PlanStepInput[]);
    if (!answer.ok)
      throw new OperationError('rejected', `the replacement was refused: ${issuesLine(answer.issues)}`, {
        issues: answer.issues,
      });
    return answer.steps;
  });
}

/**
 * One control action on a run under way here (`act` refuses with an OperationError, or returns a step count), else on
 * a fleet plan through the journal, for the worker that holds its bot to apply.
 */
async function control(
  ctx: RunContext,
  planId: string,
  action: ControlAction,
  reason: string | undefined,
  act: (run: ExecutionRun) => Awaitable<number | void>,
): Promise<ControlAnswer> {
  const tracked = ctx.book.live(planId);
  if (!tracked) return controlFleetPlan(ctx, planId, action, reason);
  const steps = await act(tracked.run);
  return { planId, action, ...(typeof steps === 'number' ? { steps } : {}) };
}

const issuesLine = (issues: readonly { where: string; message: string }[]) =>
  issues.map((i) => `${i.where}: ${i.message}`).join('; ');
