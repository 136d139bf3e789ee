import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describeExpectation, type Expectation } from '../contracts/expectation.js';
import { FAILURE_CODES, type FailureCode } from '../contracts/failure-codes.js';
import type { FleetBotSample } from '../operations/bot-access.js';
import type { OperationError, OperationName } from '../operations/errors.js';
import type { RunView } from '../operations/run-view.js';
import type { ValidationIssue } from '../validate/issue.js';
import type { PendingEscalation } from './escalation.js';

/** What a succeeded step was verified to have done: its expectations, each checked against the world's truth. */
export interface VerifiedStep {
  stepId: string;
  verb: string;
  /** Set on a sub-goal, unstuck move or safety response: the step it ran for. */
  parentStepId?: string;
  /** The expectations, as text. */
  verified: string[];
  expects: Expectation[];
}

/** Where each operation that lists what exists is found over MCP. */
const SEE: Record<OperationName, string> = {
  listBots: 'the list_bots tool names the bots',
  listRuns: 'the resource verbtree://runs lists the journaled runs',
};

/** A result both forms of which say the same: a summary and the structure, in text; the structure as itself. */
function result(summary: string, structured: Record<string, unknown>, isError: boolean): CallToolResult {
  return {
    content: [{ type: 'text', text: `${summary}\n${JSON.stringify(structured)}` }],
    structuredContent: structured,
    ...(isError ? { isError: true } : {}),
  };
}

/** A plain answer (a list, a view, a control acknowledgement). */
export function dataResult(summary: string, data: Record<string, unknown>): CallToolResult {
  return result(summary, data, false);
}

/**
 * An operation's refusal as a result the model can read (not a protocol error): its kind, its message naming the
 * field and the fix, every validation issue with path, code and "did you mean", and where to look next.
 * `issuePrefix` strips the path a tool added around the caller's own input (a verb tool's `steps[0].args`).
 */
export function refusalResult(error: OperationError, issuePrefix: readonly (string | number)[] = []): CallToolResult {
  const { issues, see, ...details } = error.details;
  const shown = issues?.map((issue) => relativeIssue(issue, issuePrefix));
  const lines = [
    `refused (${error.kind}): ${shown ? 'the arguments do not validate' : error.message}`,
    ...(shown ?? []).map(issueLine),
    ...(see ? [`see: ${SEE[see]}`] : []),
  ];
  return result(
    lines.join('\n'),
    {
      error: error.kind,
      message: shown ? lines.slice(1).join('\n').trim() : error.message,
      ...details,
      ...(shown ? { issues: shown } : {}),
      ...(see ? { see: SEE[see] } : {}),
    },
    true,
  );
}

/** Bad arguments of a tool, found before any operation ran: the same shape as a refused plan's. */
export function invalidArgumentsResult(issues: ValidationIssue[]): CallToolResult {
  const shown = issues.map((issue) => relativeIssue(issue, []));
  const lines = shown.map(issueLine);
  return result(
    ['refused (invalid): the arguments do not validate', ...lines].join('\n'),
    { error: 'invalid', message: lines.join('\n').trim(), issues: shown },
    true,
  );
}

/** One issue as a line: where, what, the code, and "did you mean" when the message does not say it already. */
export function issueLine(issue: { where: string; message: string; code: string; suggestion?: string }): string {
  const hint =
    issue.suggestion && !issue.message.includes('did you mean') ? ` (did you mean "${issue.suggestion}"?)` : '';
  return `  ${issue.where}: ${issue.message} [${issue.code}]${hint}`;
}

function relativeIssue(issue: ValidationIssue, prefix: readonly (string | number)[]) {
  const within = prefix.every((segment, i) => issue.path[i] === segment);
  const path = within ? issue.path.slice(prefix.length) : issue.path;
  const where = within && prefix.length > 0 ? formatRelative(path) : issue.where;
  return {
    where,
    path,
    code: issue.code,
    message: issue.message,
    ...(issue.suggestion ? { suggestion: issue.suggestion } : {}),
  };
}

function formatRelative(path: readonly (string | number)[]): string {
  if (path.length === 0) return '(arguments)';
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

/**
 * A run that ended. Succeeded: what each step was verified to have done. Otherwise an error result carrying
 * `{ code, retryable, detail, unmet, expects, stepId, evidence }` and what the code means.
 */
export function endedResult(view: RunView, verified: VerifiedStep[]): CallToolResult {
  const retracted = view.steps
    .filter((s) => s.status === 'retracted')
    .map((s) => ({ stepId: s.stepId, verb: s.verb, evidence: s.detail ?? '' }));
  const head = { status: view.status, planId: view.planId, bot: view.bot, ...(retracted.length ? { retracted } : {}) };
  const undone = retracted.map((s) => `  ✗ ${s.stepId} (${s.verb}) no longer holds: retracted: ${s.evidence}`);
  if (view.status === 'succeeded') {
    const counts = view.result
      ? {
          durationMs: view.result.durationMs,
          retries: view.result.retries,
          repairs: view.result.repairs,
          defences: view.result.defences,
        }
      : {};
    const lines = verified.map(
      (s) =>
        `  ${s.parentStepId ? `  (for ${s.parentStepId}) ` : ''}${s.stepId} (${s.verb}): ${s.verified.length > 0 ? s.verified.join('; ') : 'done'}`,
    );
    return result(
      [`✓ plan ${view.planId} succeeded on ${view.bot ?? 'its bot'}; verified in the world:`, ...lines, ...undone].join(
        '\n',
      ),
      { ...head, ...counts, steps: verified },
      false,
    );
  }
  const failure = view.failure ?? {
    code: 'runner_error',
    retryable: false,
    detail: `the run ended ${view.status} without a failure record`,
    stepId: null,
    unmet: [],
    expects: [],
    evidence: [],
  };
  const meaning = FAILURE_CODES[failure.code as FailureCode]?.meaning ?? '';
  const summary = [
    `✗ plan ${view.planId} ${view.status}${failure.stepId ? ` at step ${failure.stepId}` : ''}: ${failure.code}: ${failure.detail}`,
    ...(failure.unmet.length > 0 ? [`  unmet: ${failure.unmet.join('; ')}`] : []),
    ...(failure.expects.length > 0
      ? [`  it was to make true: ${(failure.expects as Expectation[]).map(describeExpectation).join('; ')}`]
      : []),
    `  ${failure.retryable ? 'retryable: trying again may succeed' : 'not retryable as it is: change the plan or the world first'}${meaning ? ` (${failure.code}: ${meaning})` : ''}`,
    ...undone,
  ].join('\n');
  return result(summary, { ...head, ...failure, meaning }, true);
}

/** A run not ended within the call's block time: a handle the model follows with get_run. */
export function runningResult(view: RunView, blockMs: number): CallToolResult {
  const running = view.steps.find((s) => s.status === 'running');
  return result(
    `… plan ${view.planId} is still ${view.status} after ${Math.round(blockMs / 1000)} s${running ? ` (step ${running.stepId}: ${running.verb})` : ''}; follow it with get_run { "planId": "${view.planId}" }, stop it with cancel_run`,
    {
      status: 'running',
      planId: view.planId,
      bot: view.bot,
      runStatus: view.status,
      steps: view.steps,
      next: 'get_run',
    },
    false,
  );
}

/**
 * A step failed past local repair and the plan waits for the client: an error result carrying the failure, its
 * evidence and what the step was to make true, and what to call next.
 */
export function escalationResult(
  escalation: PendingEscalation,
  bot: string | null,
  expects: Expectation[],
  /** The time the hold has left (ms). */
  leftMs: number,
): CallToolResult {
  const meaning = FAILURE_CODES[escalation.code]?.meaning ?? '';
  const leftS = Math.round(leftMs / 1000);
  const structured = {
    status: 'awaiting_plan',
    planId: escalation.planId,
    bot,
    code: escalation.code,
    retryable: FAILURE_CODES[escalation.code]?.retryable ?? false,
    detail: escalation.detail,
    unmet: escalation.unmet,
    expects,
    stepId: escalation.stepId,
    evidence: escalation.evidence,
    meaning,
    completedStepIds: escalation.completedStepIds,
    rung: escalation.rung,
    ...(escalation.nudge ? { nudge: escalation.nudge } : {}),
    endsInS: leftS,
    next: ['replace_remaining', 'cancel_run'],
  };
  const summary = [
    `✗ step ${escalation.stepId} (${escalation.verb}) of plan ${escalation.planId} failed past local repair: ${escalation.code}: ${escalation.detail}`,
    ...(escalation.unmet.length > 0 ? [`  unmet: ${escalation.unmet.join('; ')}`] : []),
    ...(expects.length > 0 ? [`  it was to make true: ${expects.map(describeExpectation).join('; ')}`] : []),
    ...(escalation.nudge ? [`  ${escalation.nudge}`] : []),
    `  the plan waits for you: replace_remaining { "planId": "${escalation.planId}", "steps": [...] } (new stepIds) goes on with those steps, cancel_run ends it; in ${leftS} s it ends by itself (escalation_exhausted)`,
  ].join('\n');
  return result(summary, structured, true);
}

/** What a fleet gateway cannot see of a bot: only the bot's holder has its world. */
const UNSEEN_ON_A_FLEET = ['inventory', 'heldItem', 'timeOfDay', 'blocks', 'entities', 'drops'];

/**
 * `observe` on a fleet bot: this gateway has no world, so it answers what the bot's holder last reported under its
 * lease (position, health, food, state, plan), saying what it cannot see; an error saying why when there is no
 * report to give (no worker holds the bot, or its holder has not reported it yet).
 */
export function holderReportResult(sample: FleetBotSample): CallToolResult {
  const { bot, holder } = sample;
  if (!sample.held || sample.reportedAt === null || sample.position === null) {
    const why = !sample.held
      ? `no worker holds ${bot} now (${holder ? `the lease of ${holder}, its last holder, has lapsed` : 'no worker has claimed it yet'}); a worker with room takes it, or one started with --bot ${bot}`
      : `${holder} holds ${bot} but has not reported it yet (it is joining the server); try again in a few seconds`;
    return result(
      `refused (unavailable): cannot look at ${bot}: this gateway holds no bot, and ${why}`,
      { error: 'unavailable', message: why, ...sample, see: SEE.listBots },
      true,
    );
  }
  const p = sample.position;
  return result(
    `${bot} as its holder ${holder} (epoch ${sample.epoch}) last reported it, at ${new Date(sample.reportedAt).toISOString()}: at (${p.x.toFixed(1)}, ${p.y.toFixed(1)}, ${p.z.toFixed(1)}), health ${sample.health}, food ${sample.food}, ${sample.connected ? sample.state : 'disconnected'}${sample.plan ? `, plan ${sample.plan}` : ''}${sample.queued > 0 ? `, ${sample.queued} queued` : ''}. This gateway has no world: its pack, the blocks and the mobs around it are seen only by its holder (a plan's steps verify them there).`,
    { source: 'holder_report', ...sample, unseen: UNSEEN_ON_A_FLEET },
    false,
  );
}
