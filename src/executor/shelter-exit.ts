import { noteRung } from './branch-stage.js';
import { holdShelterFirst, SHELTERED, shelterHere } from './fast-path.js';
import type { RunScope } from './scope.js';
import { fail, finish, GO_ON, type Next, type StepState } from './step-state.js';

/** Verbs that act where the bot stands, or build or leave a shelter: nothing to come out for. */
const IN_PLACE = new Set(['pillar_up', 'wall_in', 'dig_in', 'leave_shelter', 'consume_food', 'equip']);

/**
 * Before a plan's step (or a sub-goal) that may walk, a bot that stands in its own shelter (a step before ended in its
 * hole, behind its wall or up its pillar: a defence that ended the step rather than come out into the mobs, a plan's
 * own dig_in) comes out first, as the fast path does after its rounds: it waits for what keeps it in to leave (a mob
 * that gets at it there, or a fall in its health, answered as in the fast path's wait), then leave_shelter, journaled
 * as a repair of the step. Without it the step's first walk fails `stuck.path` (a hole has no path out). The step's
 * deadline moves by the time this took, as after a defence. The step ends, saying so, when the mobs stay or there is
 * no way out.
 */
export async function leaveShelterFirst(state: StepState): Promise<Next> {
  const { scope, input, base } = state;
  if (!input.preemptible || IN_PLACE.has(input.spec.name) || !builtItself(scope)) return GO_ON;
  // A bot away from the server has no ground to read: the guard phase waits for its rejoin, as for any step.
  if (!scope.world.isConnected()) return GO_ON;
  const shelter = shelterHere(scope);
  if (!shelter) return GO_ON;
  const where = SHELTERED[shelter];
  const from = scope.clock.now();
  const comingOut = () => {
    const why = `the bot stands ${where}, where ${input.spec.name} finds no path out`;
    noteRung(state, 'leave_shelter before the step', fail('stuck.path', why), why);
  };
  const held = await holdShelterFirst(scope, base.stepId, comingOut);
  if (held.endStep) return finish(fail('preempted', `${held.endStep} (before ${input.spec.name} started)`));
  state.deadlineAt += scope.clock.now() - from;
  scope.emit({
    type: 'step.resumed',
    at: scope.clock.now(),
    ...base,
    after: 'leave_shelter',
    deadlineAt: state.deadlineAt,
  });
  return GO_ON;
}

/**
 * Whether the bot built a shelter this run and has not left one since: a pit or a nook the bot was put in (a boxed-in
 * test, a cave) is the recovery ladder's to get out of, not leave_shelter's.
 */
function builtItself(scope: RunScope): boolean {
  for (const { step, outcome } of [...scope.dispatched].reverse()) {
    if (!outcome.ok) continue;
    if (step.type === 'leave_shelter') return false;
    if (step.type in SHELTERED) return true;
  }
  return false;
}
