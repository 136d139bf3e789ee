import type { Clock } from '../contracts/clock.js';
import type { Death, WorldPort } from '../contracts/world.js';
import { describeProgress } from './progress-throttle.js';
import type { StepOutcome } from './events.js';
import { cancelledOutcome, sleep } from './scope.js';
import { type Failure, fail, finish, GO_ON, type Next, type StepState } from './step-state.js';

/** A death, and when the run's clock saw it. */
export interface SeenDeath extends Death {
  at: number;
}

/**
 * The bot's deaths during one run, in order (issue 30: "the step fails explicitly or goes on after, never dead"). A
 * step notes how many there were when it started; a death after that is one its run spans, so it ends `died`,
 * whatever its acceptance says of the world it finds at the respawn (deathOf, step-executor.ts).
 */
export class RunDeaths {
  private readonly seen: SeenDeath[] = [];
  /** The count when the plan's step now running started: a death since ends every step inside it. */
  private planStepMark = 0;
  private readonly onDied = (death: Death) => this.seen.push({ ...death, at: this.clock.now() });

  constructor(
    private readonly world: WorldPort,
    private readonly clock: Clock,
  ) {
    world.events.on('died', this.onDied);
  }

  /** How many deaths so far: a step's mark. */
  get count(): number {
    return this.seen.length;
  }

  /** A plan's own step starts: deaths before it are not its own, nor its nested steps'. */
  planStepStarted(): void {
    this.planStepMark = this.seen.length;
  }

  /** The death during the plan's step now running, if any: no step inside it (a flight, a sub-goal) starts after one. */
  inPlanStep(): SeenDeath | null {
    return this.since(this.planStepMark);
  }

  /** The first death after `mark`, or null. */
  since(mark: number): SeenDeath | null {
    return this.seen[mark] ?? null;
  }

  close(): void {
    this.world.events.off('died', this.onDied);
  }
}

/** The death this step's run spans, if any. */
export function deathOf(state: StepState): SeenDeath | null {
  return state.scope.deaths.since(state.deathsAtStart);
}

/** Ends the step `died` when its run spans a death: no retry, repair or acceptance after one (null: go on). */
export function endIfDied(state: StepState): Next | null {
  const death = deathOf(state);
  return death ? finish(diedOutcome(state, death)) : null;
}

/**
 * The step's failure for a death, with its evidence: the health before the blow, what dealt it when the world knows,
 * where, and how far the step had got. Not retryable: what the bot carried and where it stood are gone.
 */
export function diedOutcome(state: StepState, death: SeenDeath): Failure {
  const { x, y, z } = death.position;
  const where = `${Math.floor(x)},${Math.floor(y)},${Math.floor(z)}`;
  const by = death.cause ? ` by ${death.cause}` : '';
  const progress = state.progress.last;
  const got = progress ? describeProgress(progress) : 'no progress reported';
  const intoMs = death.at - state.startedAt;
  // A nested step refused after its plan's step saw the death started after it.
  const when = intoMs >= 0 ? `${intoMs / 1000} s into the step` : `${-intoMs / 1000} s before the step`;
  return {
    ok: false,
    code: 'died',
    detail: `the bot died during ${state.base.stepId} (${state.base.verb}) at ${where}, killed${by} from health ${death.healthBefore}, ${when} (${got}); it respawns at its spawn point, so the plan goes back to its planner`,
  };
}

/** How often a step waiting for the bot's respawn looks again. */
const RESPAWN_POLL_MS = 50;

/**
 * A step that starts while the bot lies dead (a planner's new step right after the death, before the respawn) waits
 * for the respawn, within its deadline: it would only have its commands refused `died`.
 */
export async function awaitRespawn(state: StepState): Promise<Next> {
  const { scope } = state;
  if (scope.deaths.count === 0) return GO_ON;
  while (scope.world.health() <= 0) {
    if (scope.signal.aborted) return finish(cancelledOutcome(scope));
    const left = state.deadlineAt - scope.clock.now();
    if (left <= 0) return finish(fail('died', `the bot lay dead from ${state.base.stepId}'s start to its deadline`));
    await sleep(scope, Math.min(RESPAWN_POLL_MS, left));
  }
  return GO_ON;
}

/** A death ends every step whose run spans it `died`, and is told once, as an incident of the plan's own step. */
export function withDeath(state: StepState, outcome: StepOutcome): StepOutcome {
  const death = deathOf(state);
  // A halted run (its journal or lease lost) keeps its halt: nothing more can be recorded of it anyway.
  if (!death || state.scope.halted) return outcome;
  const died = diedOutcome(state, death);
  const { scope, base, input } = state;
  if (input.parentStepId === undefined)
    scope.emit({
      type: 'incident',
      at: scope.clock.now(),
      planId: base.planId,
      stepId: base.stepId,
      kind: 'death',
      detail: died.detail,
    });
  return died;
}
