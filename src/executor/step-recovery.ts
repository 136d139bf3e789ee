import { isRetryableByDefault, type FailureCode } from '../contracts/failure-codes.js';
import type { Vec3Like } from '../contracts/world.js';
import type { AnyCapabilitySpec } from '../registry/capability-spec.js';
import { backoffDelayMs } from '../recovery/backoff.js';
import { unmetExpectations } from '../contracts/expectation.js';
import { verdictQuery } from '../registry/effects.js';
import { applyDecision } from './apply-decision.js';
import { chosenBranch, exploreBranches, noteRung, runChosenBranch } from './branch-stage.js';
import { observeWithin } from './observe.js';
import { isRepairable, openIncident, recoveryContext } from './repair.js';
import { BODY_CODES, distanceTo, hasFreeNeighbour } from './repair-fit.js';
import { moveAgent, sleep } from './scope.js';
import { acceptancePhase, succeeded } from './step-attempt.js';
import type { TreeRecovery } from './tree-recoveries.js';
import { again, type Failure, finish, type Next, type StepState } from './step-state.js';

/**
 * After a failed attempt: a failure of the path or the body that left the bot
 * no closer is not retried plainly (the same attempt would meet the same
 * world); a retryable one gets a local retry (phase 6); a stuck-type one climbs
 * the recovery ladder (phase 7); anything else ends the step.
 */
export async function afterFailure(state: StepState, failure: Failure, startedFrom: Vec3Like): Promise<Next> {
  const { scope, input } = state;
  if (await effectMadeAnyway(state, failure)) return succeeded(state, { ok: true });
  const progressed = madeProgress(startedFrom, scope.world.position(), state.target);
  const stalled = BODY_CODES.has(failure.code) && !progressed;
  // When the body is free to move, an unstuck move that changed its place and still left it making no progress shows the body was never the problem.
  if (stalled && state.decision && state.lastRung?.startsWith('unstuck') && hasFreeNeighbour(scope.world)) {
    return finish({
      ...failure,
      detail: `${failure.detail}; the same failure with no progress after ${state.lastRung}: local recovery cannot change this (tried: ${scope.ladder.history.join(', ')})`,
    });
  }
  if (
    failure.code === 'world_disconnected' &&
    isRetryable(input.spec, failure.code) &&
    (await rejoined(state, failure))
  )
    return (await heldThrough(state)) ? succeeded(state, { ok: true }) : again('retry');
  // A safety response whose effects the world does not show met a world it was not judged on; the fast path judges it
  // again. In a night's tech-tree run a flight that ended by another skeleton, retried on its old judgement, walked
  // into a creeper's blast.
  const unmetJudgement = input.judgedNow === true && failure.code === 'effects_unmet';
  if (
    !state.decision &&
    !stalled &&
    !unmetJudgement &&
    isRetryable(input.spec, failure.code) &&
    state.retries < scope.policy.maxLocalRetries &&
    failure.code !== 'aborted'
  )
    return localRetry(state, failure);
  // Only a plan's own steps climb the ladder: sub-goal and helper steps run inside a rung already.
  if (isRepairable(failure.code) && input.parentStepId === undefined && !scope.signal.aborted)
    return climbLadder(state, failure, progressed);
  return finish(failure);
}

/**
 * Failures of an attempt's own acting (a tree retry that met its own effect, a confirmation lost to a dropped
 * connection): the effect may be made all the same. Not cancellations, takeovers, broken user code, a deadline or a
 * verdict already reached, which say something of their own.
 */
const JUDGED_AFTER_FAILING = new Set<FailureCode>([
  'guard_failed',
  'precondition_missing',
  'state_timeout',
  'stuck.loop',
  'stuck.position',
  'stuck.progress',
  'stuck.path',
  'stuck.flap',
  'hanging_invocation',
  'no_path',
  'world_disconnected',
  'world_unresponsive',
]);

/**
 * An attempt that acted and then failed is judged on the world's truth before anything runs again: when every effect
 * asked of the step holds, it ends verified (its retry would only meet its own effect: "nothing to dig, already air").
 * Never redo what holds; `ok` still comes only from the step's own acceptance.
 */
async function effectMadeAnyway(state: StepState, failure: Failure): Promise<boolean> {
  if (state.ttfaMs === null || !state.asked || state.asked.expectations.length === 0) return false;
  if (!JUDGED_AFTER_FAILING.has(failure.code) || state.scope.signal.aborted) return false;
  if (failure.code === 'world_disconnected' && !state.scope.world.isConnected()) return false;
  return (await acceptancePhase(state, { ok: true })).outcome.ok;
}

function isRetryable(spec: AnyCapabilitySpec, code: FailureCode): boolean {
  return spec.retryableCodes.length > 0 ? spec.retryableCodes.includes(code) : isRetryableByDefault(code);
}

/** How often a step waiting for its world's connection looks again. */
const RECONNECT_POLL_MS = 250;

/**
 * A world whose connection dropped and that is joining again (`reconnecting`: a bot rejoining a server that
 * restarts) is waited for, never past the step's deadline, rather than spend its retries in a second on a server
 * that is away. The wait spends no retry of the budget, which is for failures of a world that answers. True when
 * the world was away and is back; false when it is not rejoining (connected, so the failure was another's, e.g. a
 * fenced holder's; or down for good, which no wait mends), or its deadline, the run or the rejoining ended the wait.
 */
export async function rejoined(state: StepState, failure: Failure): Promise<boolean> {
  const { scope, base } = state;
  if (!scope.world.reconnecting?.() || scope.signal.aborted) return false;
  scope.emit({
    type: 'step.retry',
    at: scope.clock.now(),
    ...base,
    attempt: state.attempts + 1,
    delayMs: Math.max(0, state.deadlineAt - scope.clock.now()),
    code: failure.code,
    detail: `${failure.detail}; waiting for the connection, until the step's deadline at the latest`,
  });
  while (!scope.world.isConnected()) {
    const left = state.deadlineAt - scope.clock.now();
    if (left <= 0 || scope.signal.aborted || !scope.world.reconnecting?.()) return false;
    await sleep(scope, Math.min(RECONNECT_POLL_MS, left));
  }
  return true;
}

/**
 * After a rejoin, what the dropped attempt may have done is checked before it is done again (run --resume's rule:
 * never redo what holds): its effects as asked, observed in the world as it is now, the server's rollback included.
 * A craft that went through before the server went away is not crafted twice; one the restart undid is redone.
 */
async function heldThrough(state: StepState): Promise<boolean> {
  const { scope, input } = state;
  const expectations = state.asked?.expectations ?? [];
  if (expectations.length === 0) return false;
  const query = verdictQuery(input.spec, input.args, expectations);
  const observed = await observeWithin(scope, query, 'to check what the attempt did before the connection dropped');
  return observed.ok && unmetExpectations(expectations, observed.observation).length === 0;
}

/**
 * Phase 6 (A3 in docs/contract.md): the same attempt again after a seeded exponential backoff, never past the
 * deadline.
 */
async function localRetry(state: StepState, failure: Failure): Promise<Next> {
  const { scope, base } = state;
  state.retries++;
  const delayMs = backoffDelayMs(state.retries, scope.policy.backoff, scope.random);
  scope.metrics.recordRetry();
  scope.emit({
    type: 'step.retry',
    at: scope.clock.now(),
    ...base,
    attempt: state.attempts + 1,
    delayMs,
    code: failure.code,
    detail: failure.detail,
  });
  await sleep(scope, Math.min(delayMs, Math.max(0, state.deadlineAt - scope.clock.now())));
  return again('retry');
}

/**
 * Phase 7: the recovery ladder's next rung for a stuck-type failure (an unstuck
 * move, a fresh path search, building up to the goal), within its budgets; the
 * agent goes RECOVERING and back. A spent ladder ends the step.
 */
async function climbLadder(state: StepState, failure: Failure, progressed: boolean): Promise<Next> {
  const { scope, input } = state;
  const situation = { code: failure.code, target: state.target, progressed };
  const context = recoveryContext(scope, input.spec.name, situation);
  // A new incident first tries its ways out on forks (when the branch stage is on): the best scored is its first rung.
  const explored = state.decision ? null : await exploreBranches(state, failure);
  const decision = state.decision
    ? scope.ladder.report(state.decision, { resolved: false }, context)
    : openIncident(
        scope.ladder,
        failure.code,
        failure.detail,
        scope.clock.now(),
        scope.world.position(),
        context,
        chosenBranch(explored),
      );
  state.decision = decision;
  if (!decision) return finish(failure);
  if (decision.action.kind === 'branch' && explored) {
    const { done } = await runChosenBranch(state, failure, decision, explored);
    // A branch that stood in for the step is verified by the step's own expectations; else the step runs again.
    return done && (await heldThrough(state)) ? succeeded(state, { ok: true }) : again('repair');
  }
  moveAgent(scope, 'RECOVERING', `${failure.code}: ${decision.strategy}`);
  const repaired = await applyDecision(
    scope,
    { ...input, deadlineCap: state.deadlineAt },
    decision,
    failure,
    situation,
  );
  if (repaired.stop) {
    moveAgent(scope, decision.nextState === 'PLANNING' ? 'PLANNING' : 'EXECUTING', decision.reason);
    return finish(repaired.stop);
  }
  state.lastRung = repaired.label;
  moveAgent(scope, 'EXECUTING', `recovery rung done: ${repaired.label}`);
  noteRung(state, repaired.label, failure, failure.detail);
  state.decision = repaired.decision;
  return again('repair');
}

/**
 * A retry or an unstuck move the capability's tree made inside an attempt: counted in the step's record and the SLA,
 * and told as `step.retry` / `step.repair` marked `inTree` (the executor's own budget is untouched: the tree's
 * retries are the tree's).
 */
export function noteTreeRecovery(state: StepState, recovery: TreeRecovery): void {
  const { scope, base } = state;
  const at = scope.clock.now();
  const { code, detail, command } = recovery;
  if (recovery.kind === 'retry') {
    state.treeRetries++;
    scope.metrics.recordRetry();
    const attempt = state.attempts;
    scope.emit({ type: 'step.retry', at, ...base, attempt, delayMs: 0, code, detail, inTree: true });
    return;
  }
  state.treeRepairs++;
  scope.metrics.recordRepair();
  scope.emit({
    type: 'step.repair',
    at,
    ...base,
    strategy: `unstuck: ${command} inside the tree`,
    code,
    detail,
    inTree: true,
  });
}

const PROGRESS_BLOCKS = 1;

/** At least a block closer to the target (or, without one, a block away from where the attempt started). */
function madeProgress(from: Vec3Like, to: Vec3Like, target: Vec3Like | undefined): boolean {
  const before = distanceTo(from, target);
  const after = distanceTo(to, target);
  if (before === null || after === null)
    return Math.hypot(to.x - from.x, to.y - from.y, to.z - from.z) >= PROGRESS_BLOCKS;
  return before - after >= PROGRESS_BLOCKS;
}
