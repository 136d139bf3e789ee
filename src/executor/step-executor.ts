import { awaitRespawn, diedOutcome, endIfDied, withDeath } from './deaths.js';
import { durabilityFailure, flushed } from './durability.js';
import type { StepOutcome, StepRecord } from './events.js';
import type { RunScope } from './scope.js';
import { acceptancePhase, attemptPhase, resumeAfterPreemption, succeeded } from './step-attempt.js';
import { guardPhase } from './step-guard.js';
import { claimKey } from './step-idempotency.js';
import { leaveShelterFirst } from './shelter-exit.js';
import { noteWater } from './stranded.js';
import type { StepInput } from './step-input.js';
import { afterFailure } from './step-recovery.js';
import { fail, finish, type Next, openStep, type StepState } from './step-state.js';

export type { StepInput } from './step-input.js';

/**
 * One plan step from dispatch to exactly one `step.ended`, in the phases
 * ARCHITECTURE.md numbers ("One step, in order"): its idempotency key claimed
 * before anything else happens, `step.started`, then cycles of guard and
 * sub-goals, a supervised attempt and acceptance, a failed attempt answered by
 * a local retry or a rung of the recovery ladder, until one phase ends the
 * step. The step's expectations are fixed once, from the world at dispatch and
 * the arguments as asked; every attempt is judged against them and nothing else.
 */
export async function executeStep(scope: RunScope, input: StepInput): Promise<StepRecord> {
  const state = openStep(scope, input);
  // A halted run (its journal lost) starts no further step: it ends at once, having done nothing.
  if (scope.halted) return finishStep(state, scope.halted);
  // Nothing the executor decides on (a defence, a sub-goal, a repair) runs on after the bot died in the plan's step.
  if (input.parentStepId === undefined) scope.deaths.planStepStarted();
  else if (scope.deaths.inPlanStep()) return finishStep(state, diedOutcome(state, scope.deaths.inPlanStep()!));
  const claimed = await claimKey(state);
  if (claimed.then === 'finish') return finishStep(state, claimed.outcome);
  const dispatched = dispatch(state);
  if (dispatched.then === 'finish') return finishStep(state, dispatched.outcome);
  const alive = await awaitRespawn(state);
  if (alive.then === 'finish') return finishStep(state, alive.outcome);
  const outside = await leaveShelterFirst(state);
  if (outside.then === 'finish') return finishStep(state, outside.outcome);
  for (;;) {
    const next = await cycle(state);
    if (next.then === 'finish') return finishStep(state, next.outcome);
  }
}

/** Phase 2: `step.started` with the step's deadline. */
function dispatch(state: StepState): Next {
  const { scope, input, base } = state;
  const { step, spec, args } = input;
  scope.emit({
    type: 'step.started',
    at: state.startedAt,
    ...base,
    version: spec.version,
    attempt: 1,
    deadlineAt: state.deadlineAt,
    args,
    ...(step.idempotencyKey ? { idempotencyKey: step.idempotencyKey } : {}),
    ...(input.parentStepId ? { parentStepId: input.parentStepId } : {}),
  });
  if (!state.duration.ok) return finish(fail('runner_error', state.duration.detail));
  return { then: 'go_on' };
}

/** One cycle: guard (3), a supervised attempt (4), acceptance (5), then success or what the failure leads to (6, 7). */
async function cycle(state: StepState): Promise<Next> {
  const killed = endIfDied(state);
  if (killed) return killed;
  const guarded = await guardPhase(state);
  if (guarded.then !== 'go_on') return guarded;
  const attempt = await attemptPhase(state);
  if ('then' in attempt) return attempt;
  // A death is not a failure to retry or repair: the bot is elsewhere, without its pack.
  const killedDuring = endIfDied(state);
  if (killedDuring) return killedDuring;
  const { supervised, startedFrom } = attempt;
  const judged = await acceptancePhase(state, supervised.outcome);
  // Broken acceptance code would only break again: no retry can tell whether the effects hold.
  if (judged.brokenUserCode) return finish(judged.outcome);
  if (supervised.preemptedBy) {
    const resumed = await resumeAfterPreemption(state, supervised.preemptedBy, judged.outcome);
    if (resumed.then !== 'go_on') return resumed;
  }
  if (judged.outcome.ok) return succeeded(state, judged.outcome);
  return afterFailure(state, judged.outcome, startedFrom);
}

/**
 * The step's one `step.ended`: its key completed or released, its SLA measured,
 * its record kept in the run's result. With a durability barrier, the end is
 * durable before the record is returned, so the next step cannot start before it.
 */
async function finishStep(state: StepState, ended: StepOutcome): Promise<StepRecord> {
  const { scope, input, base } = state;
  const outcome = withDeath(state, noteWater(scope.world, ended));
  const { clock } = scope;
  await closeKey(state, outcome);
  const durationMs = clock.now() - state.startedAt;
  if (!(outcome.ok && outcome.deduplicated))
    scope.metrics.recordStep(base.verb, clock.now(), durationMs, state.ttfaMs, outcome.ok ? undefined : outcome);
  const { attempts, ttfaMs } = state;
  // What the safety layer met and killed in this step was this run's of it (its failure has named it by now): a later
  // plan's step of the same id starts with none of it, and a worker running plan after plan keeps no step's tally.
  scope.safety.tally.forget(base.stepId);
  scope.emit({ type: 'step.ended', at: clock.now(), ...base, outcome, durationMs, attempts, ttfaMs });
  const record: StepRecord = {
    step: input.step,
    outcome,
    attempts,
    ttfaMs,
    durationMs,
    retries: state.retries + state.treeRetries,
    repairs: state.repairs + state.treeRepairs,
    defences: state.defences,
    ...(input.parentStepId ? { parentStepId: input.parentStepId } : {}),
  };
  scope.dispatched.push(record);
  if (scope.durability && !scope.halted) {
    const unrecorded = await flushed(scope.durability, `the end of ${base.stepId}`, 'no further step starts');
    if (unrecorded) scope.halt(unrecorded);
  }
  return record;
}

/** The key this step claimed: completed with the expectations it was verified against, or released. A ledger that cannot record it halts the run. */
async function closeKey(state: StepState, outcome: StepOutcome): Promise<void> {
  const { scope, claimedKey } = state;
  if (claimedKey === null) return;
  try {
    if (outcome.ok) await scope.idempotency.complete(claimedKey, state.asked?.expectations ?? []);
    else await scope.idempotency.release(claimedKey);
  } catch (error) {
    const what = `idempotency key "${claimedKey}" as ${outcome.ok ? 'completed' : 'released'}`;
    scope.halt(durabilityFailure(error, what, 'no further step starts'));
  }
}
