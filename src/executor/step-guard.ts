import type { Observation } from '../contracts/world.js';
import type { GuardResult } from '../registry/capability-spec.js';
import { dispatchQuery } from '../registry/effects.js';
import { exploreOtherRecipes } from './branch-stage.js';
import { observeWithin } from './observe.js';
import { cancelledOutcome } from './scope.js';
import { again, fail, finish, GO_ON, type Next, noteFirstAction, type StepState } from './step-state.js';
import { rejoined } from './step-recovery.js';
import { runSubgoals } from './subgoals.js';
import { callExpect, callGuard } from './user-code.js';

/**
 * Phase 3, before each attempt: the run still wants it and the deadline allows
 * it; the world is observed (the first observation fixes the step's
 * expectations, V4's yardstick); the guard (V3 in docs/contract.md) holds, or the sub-goals for
 * the precondition it names run first.
 */
export async function guardPhase(state: StepState): Promise<Next> {
  const { scope, input, base } = state;
  if (scope.signal.aborted) return finish(cancelledOutcome(scope));
  if (scope.clock.now() >= state.deadlineAt)
    return finish(fail('deadline_exceeded', `step ${base.stepId} passed its deadline before its next attempt`));

  const observed = await observeWithin(scope, dispatchQuery(input.spec, input.args), 'before the attempt');
  if (!observed.ok) {
    const failure = fail(observed.code, observed.detail);
    // A world that is away says nothing about itself: the guard is judged once it is back, within the deadline.
    if (failure.code === 'world_disconnected' && (await rejoined(state, failure))) return again('retry');
    return finish(failure);
  }
  const pre = observed.observation;
  const expected = fixExpectations(state, pre);
  if (expected.then !== 'go_on') return expected;
  const guarded = callGuard(input.spec, { world: scope.world, observation: pre }, input.args);
  if (!guarded.ok) return finish(fail('runner_error', guarded.detail));
  return guarded.value.ok ? GO_ON : guardFailed(state, guarded.value, pre);
}

/** The step's effects as asked, from the world at its first observation: emitted once (`step.expects`), journaled. */
function fixExpectations(state: StepState, pre: Observation): Next {
  if (state.asked) return GO_ON;
  const { scope, input, base } = state;
  const expected = callExpect(input.spec, pre, input.args);
  if (!expected.ok) return finish(fail('runner_error', expected.detail));
  state.asked = { pre, expectations: expected.value };
  const judgesItself = input.spec.acceptance !== undefined;
  if (state.asked.expectations.length > 0 || judgesItself)
    scope.emit({
      type: 'step.expects',
      at: scope.clock.now(),
      ...base,
      expectations: state.asked.expectations,
      ...(judgesItself ? { pre } : {}),
    });
  return GO_ON;
}

/** A failed guard: the same failure too often ends the step (FM-02); a missing precondition runs its sub-goals. */
async function guardFailed(
  state: StepState,
  guard: Extract<GuardResult, { ok: false }>,
  pre: Observation,
): Promise<Next> {
  const { scope, input } = state;
  const signature = `${guard.reason}|${JSON.stringify(guard.missing ?? null)}`;
  const seen = (state.guardFailures.get(signature) ?? 0) + 1;
  state.guardFailures.set(signature, seen);
  if (seen > scope.policy.maxSameGuardFailures)
    return finish(
      fail('guard_failed', `the guard failed the same way ${seen} times without progress: ${guard.reason}`),
    );
  if (guard.missing && input.spec.subgoals && input.depth < scope.policy.maxSubgoalDepth)
    return subgoalsFirst(state, guard, pre);
  return finish(guard.missing ? fail('precondition_missing', guard.reason) : fail('guard_failed', guard.reason));
}

/**
 * Sub-goals are steps with deadlines of their own (gathering the cobblestone an
 * axe needs outlasts the craft); this step's deadline moves by the time they
 * took, as it does for a pause.
 */
async function subgoalsFirst(
  state: StepState,
  guard: Extract<GuardResult, { ok: false }>,
  pre: Observation,
): Promise<Next> {
  const { scope, input, base } = state;
  const { clock } = scope;
  const subgoalsFrom = clock.now();
  const onFirstAction = (command: string) => noteFirstAction(state, command);
  const satisfied = await runSubgoals(scope, { ...input, onFirstAction }, guard, pre);
  state.deadlineAt = Math.min(input.deadlineCap ?? Infinity, state.deadlineAt + (clock.now() - subgoalsFrom));
  scope.emit({ type: 'step.resumed', at: clock.now(), ...base, after: 'its sub-goals', deadlineAt: state.deadlineAt });
  if (satisfied.ok) return again('subgoals');
  const failure = fail(satisfied.code ?? 'precondition_missing', `${guard.reason}; ${satisfied.detail}`);
  // Before the planner hears of it, another recipe may be tried on forks (branch-stage.ts; off by default).
  return (await exploreOtherRecipes(state, failure)) ? again('repair') : finish(failure);
}
