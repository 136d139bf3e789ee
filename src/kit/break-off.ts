import { WorldError } from '../contracts/index.js';
import { type RunContext, withContext } from '../registry/index.js';

/**
 * A fight's break-off, watched through every move: the fight runs its moves under a signal of its own that fires when
 * the step's does, or at the blow that takes the bot's health below `below`. The health is the world's `hurt` event
 * (on the embedded server the server's own health update), so the move in progress (a walk up to a mob, a step back,
 * a wait for the charge, a swing) is cancelled at that blow, its actuator stopped, not when the move ends. Read between
 * moves only, a break-off set at 15.3 in a night's tech-tree run (SimWorld's world 10) fired at 10: one move had
 * lasted about 2.5 s with three zombies hitting, and the bot died in the flight after it.
 */
export interface BreakOff {
  /** The step's context with the fight's signal: every move of the fight runs under it. */
  readonly ctx: RunContext<unknown>;
  /** Throws the break-off (`preempted`) once the health is below the point. */
  check(): void;
  /** What a failed move means: the break-off when it cut the move short, else the move's own failure. */
  explain(error: unknown): unknown;
  /** Stops watching (the fight is over, whichever way). */
  end(): void;
}

export function watchBreakOff(ctx: RunContext<unknown>, targetName: string, below: number): BreakOff {
  const { world, signal: stepSignal } = ctx;
  const fight = new AbortController();
  let broken: WorldError | null = null;
  const breakOffAt = (health: number) => {
    if (broken || health >= below) return;
    broken = new WorldError(
      'preempted',
      `health ${health} is below ${below}: the fight with the ${targetName} breaks off to be judged again`,
    );
    fight.abort(broken);
  };
  const onStepAborted = () => fight.abort(stepSignal.reason);
  const watching = below > 0;
  if (watching) world.events.on('hurt', breakOffAt);
  if (stepSignal.aborted) onStepAborted();
  else stepSignal.addEventListener('abort', onStepAborted, { once: true });
  return {
    ctx: withContext(ctx, { signal: fight.signal }),
    check() {
      breakOffAt(world.health());
      if (broken) throw broken;
    },
    explain: (error) => broken ?? error,
    end() {
      if (watching) world.events.off('hurt', breakOffAt);
      stepSignal.removeEventListener('abort', onStepAborted);
    },
  };
}
