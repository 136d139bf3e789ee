import type { StepOutcome } from './events.js';
import type { Vec3Like } from '../contracts/world.js';
import { verdictQuery } from '../registry/effects.js';
import type { Interrupt } from './interrupts.js';
import { noteRung } from './branch-stage.js';
import { endIfDied } from './deaths.js';
import { flushed } from './durability.js';
import { observeWithin } from './observe.js';
import { recoveryContext } from './repair.js';
import { isSafetySignal } from './safety/index.js';
import { moveAgent } from './scope.js';
import { again, fail, finish, GO_ON, type Next, noteFirstAction, type StepState } from './step-state.js';
import { noteTreeRecovery } from './step-recovery.js';
import { type SupervisedOutcome, superviseAttempt } from './supervise.js';
import { callJudge } from './user-code.js';

/** What one supervised attempt came to, and where the bot stood when it began (progress is measured from there). */
export interface Attempt {
  supervised: SupervisedOutcome;
  startedFrom: Vec3Like;
}

/**
 * Phase 4: one attempt of the capability's runner, under the executor's watch
 * (supervise.ts). The journal knows of the attempt before its first actuator
 * command: with a durability barrier, `attempt.started` is flushed first, and
 * an attempt that cannot be made durable ends the step (and the run) without acting.
 */
export async function attemptPhase(state: StepState): Promise<Attempt | Extract<Next, { then: 'finish' }>> {
  const { scope, input, base, expectedMs } = state;
  const { policy } = scope;
  state.attempts++;
  const startedFrom = { ...scope.world.position() };
  scope.emit({ type: 'attempt.started', at: scope.clock.now(), ...base, attempt: state.attempts });
  const what = `attempt ${state.attempts} of ${base.stepId}`;
  const unrecorded = scope.durability ? await flushed(scope.durability, what, 'the step did not act') : null;
  if (unrecorded) {
    scope.halt(unrecorded);
    return { then: 'finish', outcome: unrecorded };
  }
  const supervised = await superviseAttempt(scope, {
    stepId: base.stepId,
    spec: input.spec,
    args: input.args,
    deadlineAt: state.deadlineAt,
    preemptible: input.preemptible,
    ...(input.combat ? { combat: input.combat } : {}),
    limits: {
      ttfaMs: policy.ttfaMs,
      // A verb that waits by design (follow) is bounded by its deadline, not by the no-actuator limit.
      noActuatorMs: input.spec.idles ? Math.max(policy.noActuatorMs, 2 * expectedMs) : policy.noActuatorMs,
      maxStateDurationMs: 2 * expectedMs,
      expectedDurationMs: expectedMs,
    },
    onFirstAction: (command) => noteFirstAction(state, command),
    onTreeRecovery: (recovery) => noteTreeRecovery(state, recovery),
    progress: state.progress,
  });
  return { supervised, startedFrom };
}

/** The detail names this many unmet expectations; the outcome's `unmet` lists them all. */
const LISTED_UNMET = 5;

/** How acceptance judged an attempt; `brokenUserCode` when the capability's own acceptance misbehaved. */
export interface Judged {
  outcome: StepOutcome;
  brokenUserCode?: true;
}

/**
 * Phase 5 (V4 in docs/contract.md): a runner that says it succeeded is judged on one observation of
 * the world's truth against the step's expectations as asked (and the
 * capability's own acceptance); a runner that failed keeps its failure.
 */
export async function acceptancePhase(state: StepState, attempt: SupervisedOutcome['outcome']): Promise<Judged> {
  if (!attempt.ok) return { outcome: fail(attempt.code, attempt.detail) };
  const { scope, input } = state;
  const asked = state.asked!;
  const query = verdictQuery(input.spec, input.args, asked.expectations);
  const observed = await observeWithin(scope, query, 'to verify the effects');
  if (!observed.ok) return { outcome: fail(observed.code, observed.detail) };
  const verdict = callJudge(input.spec, asked.expectations, asked.pre, observed.observation, input.args);
  if (!verdict.ok) return { outcome: fail('runner_error', verdict.detail), brokenUserCode: true };
  if (verdict.value.ok) return { outcome: { ok: true } };
  const { unmet } = verdict.value;
  const listed =
    unmet.length > LISTED_UNMET ? [...unmet.slice(0, LISTED_UNMET), `and ${unmet.length - LISTED_UNMET} more`] : unmet;
  return { outcome: fail('effects_unmet', `acceptance failed: ${listed.join('; ')}`, unmet) };
}

/**
 * A safety response or an urgent intent took over: it runs, and the step's
 * deadline moves by the time it took (the step was paused, not running). A
 * preempted attempt is not a failure of the step: it does not count, and the
 * step is re-validated (the guard, next cycle) and runs again.
 */
export async function resumeAfterPreemption(state: StepState, by: Interrupt, outcome: StepOutcome): Promise<Next> {
  const { scope, base } = state;
  const { clock } = scope;
  scope.emit({ type: 'step.preempted', at: clock.now(), ...base, by: by.signal, reason: by.detail });
  const pausedAt = clock.now();
  const verdict = await by.run();
  if (verdict?.defence) noteDefence(state, by, verdict.defence);
  state.deadlineAt += clock.now() - pausedAt;
  moveAgent(scope, 'IDLE', `back to ${base.stepId}`);
  moveAgent(scope, 'EXECUTING', `resuming ${base.stepId}`);
  if (outcome.ok || outcome.code !== 'preempted') return GO_ON;
  // Killed during the takeover: whatever the world at the respawn shows, this step did not do it.
  const killed = endIfDied(state);
  if (killed) return killed;
  if (verdict?.endStep) return finish(fail('preempted', verdict.endStep));
  // The attempt may have done its work before the takeover (armour put on, the check not yet made): judged now on the
  // world's truth, it ends verified rather than run again into a guard its own effect fails ("no helmet to equip").
  if (state.asked) {
    const judged = await acceptancePhase(state, { ok: true });
    if (judged.outcome.ok) return succeeded(state, judged.outcome);
  }
  if (isSafetySignal(by.signal) && ++state.safetyPreemptions >= scope.policy.safety.maxPreemptionsPerStep) {
    const times = `the safety monitor took this step over ${state.safetyPreemptions} times`;
    const tally = scope.safety.tally.describe(base.stepId, scope.world.health());
    return finish(
      fail(
        'preempted',
        `${tally ? `${tally}: ` : ''}${times} (last: ${by.signal}, ${by.detail}): the threat keeps coming back where the step goes, so it ends here rather than go back into it`,
      ),
    );
  }
  state.attempts--;
  state.decision = null;
  scope.emit({ type: 'step.resumed', at: clock.now(), ...base, after: by.signal, deadlineAt: state.deadlineAt });
  return again('preemption');
}

/**
 * A safety takeover that ran a response is a repair of the step it took over (issue 30 §2): counted in the step's
 * `repairs` and `defences`, and told as `step.repair` "defence: dig_in from 3 zombies", so the result, the journal and
 * a planner see it. Its responses' own steps are nested records, each counting only its own repairs: never twice.
 */
function noteDefence(state: StepState, by: Interrupt, what: string): void {
  state.defences++;
  noteRung(state, `defence: ${what}`, fail('preempted', `${by.signal}: ${by.detail}`), by.detail);
}

/** Verified as asked: the ladder's open incident, if any, is resolved, and the step ends ok. */
export function succeeded(state: StepState, outcome: StepOutcome): Next {
  const { scope, input } = state;
  if (state.retries + state.treeRetries > 0) scope.metrics.recordRetrySucceeded();
  if (state.decision) scope.ladder.report(state.decision, { resolved: true }, recoveryContext(scope, input.spec.name));
  scope.ladder.stepCompleted();
  return finish(outcome);
}
