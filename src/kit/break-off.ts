import { WorldError } from '../contracts/index.js';
import { type RunContext, withContext } from '../registry/index.js';
import { joiningAt } from './joining.js';

/** When a fight breaks off to be judged again (attack_entity's `breakOffBelow` and `judgedOn`). */
export interface BreakOffRule {
  /** Health below which the fight breaks off; 0 or absent: never for its health. */
  below?: number;
  /**
   * The mobs the fight was judged on (its targets and the walkers counted as joining it): another hostile that comes
   * within reach of the bot (joining.ts) breaks it off. Absent: no hostile does.
   */
  judgedOn?: readonly number[];
}

/** How often the mobs about are looked at for one joining the fight: two game ticks. */
export const JOIN_WATCH_MS = 100;

/**
 * A fight's break-off, watched through every move: the fight runs its moves under a signal of its own that fires when
 * the step's does, at the blow that takes the bot's health below `below`, or when a hostile the fight was not judged on
 * comes within reach of the bot. The health is the world's `hurt` event (on the embedded server the server's own
 * health update), so the move in progress (a walk up to a mob, a step back, a wait for the charge, a swing) is
 * cancelled at that blow, its actuator stopped, not when the move ends. Read between moves only, a break-off set at
 * 15.3 in a night's tech-tree run (SimWorld's world 10) fired at 10: one move had lasted about 2.5 s with three zombies
 * hitting, and the bot died in the flight after it.
 *
 * A mob that joins is looked for on the run's clock (the world tells no event for a mob's step). Only one that comes
 * within reach counts: one already there when the fight began was seen by its judgement and left out of it (a spider
 * neutral by day, a walker below the bot's pillar), so judging again would only judge the same again. In a tech-tree
 * run (the server's world 10) a fight judged on a lone zombie at 4.4 took 11 when a spider joined it, and broke off
 * at its point of 6 with only a flight the spider follows left.
 */
export interface BreakOff {
  /** The step's context with the fight's signal: every move of the fight runs under it. */
  readonly ctx: RunContext<unknown>;
  /** Throws the break-off (`preempted`) once the health is below the point or a mob joined. */
  check(): void;
  /** What a failed move means: the break-off when it cut the move short, else the move's own failure. */
  explain(error: unknown): unknown;
  /** Stops watching (the fight is over, whichever way). */
  end(): void;
}

/**
 * How a break-off names what it cut short: the `activity` ("fight with the zombie", flee's "flight from the skeleton"),
 * and what a hostile that joins it did, before the target's name ("joined the fight with").
 */
export interface BreakOffWording {
  activity: string;
  joined: string;
}

/** `wording`: a fight's by default; flee's flight names itself. */
export function watchBreakOff(
  ctx: RunContext<unknown>,
  targetName: string,
  rule: BreakOffRule,
  { activity, joined }: BreakOffWording = { activity: `fight with the ${targetName}`, joined: 'joined the fight with' },
): BreakOff {
  const { world, clock, signal: stepSignal } = ctx;
  const below = rule.below ?? 0;
  const fight = new AbortController();
  let broken: WorldError | null = null;
  const breakOff = (why: string) => {
    if (broken) return;
    broken = new WorldError('preempted', why);
    fight.abort(broken);
  };
  const breakOffAt = (health: number) => {
    if (health < below) breakOff(`health ${health} is below ${below}: the ${activity} breaks off to be judged again`);
  };
  const joining = rule.judgedOn ? joiningAt(world, new Set(rule.judgedOn)) : null;
  let timer: ReturnType<typeof clock.setTimeout> | undefined;
  const lookForJoiners = () => {
    const joiner = joining?.();
    const one = joiner?.name === targetName ? 'another' : 'a';
    if (joiner) breakOff(`${one} ${joiner.name} ${joined} the ${targetName}: judged again`);
    else timer = clock.setTimeout(lookForJoiners, JOIN_WATCH_MS);
  };
  const onStepAborted = () => fight.abort(stepSignal.reason);
  const watchingHealth = below > 0;
  if (watchingHealth) world.events.on('hurt', breakOffAt);
  if (joining) timer = clock.setTimeout(lookForJoiners, JOIN_WATCH_MS);
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
      if (watchingHealth) world.events.off('hurt', breakOffAt);
      if (timer !== undefined) clock.clearTimeout(timer);
      stepSignal.removeEventListener('abort', onStepAborted);
    },
  };
}
