import {
  type NavigationGoal,
  type TreeBindings,
  type Vec3Like,
  walkStrikingBack,
  watchBreakOff,
  WorldError,
} from 'verbtree';
import type { FleeArgs } from './schema.js';
import { threatPosition } from './threat.js';

/**
 * Headings tried, in degrees from straight away: never towards the threat, so every one gains
 * distance. Three, because the path detector ends the step after three no-paths in a row anyway.
 */
const HEADINGS = [0, 60, -60];
/** How close to its goal column the walk may stop. */
const GOAL_RANGE = 2;
/**
 * Aim past the required distance by the goal's range and a block of rounding, so stopping anywhere in range is far
 * enough.
 */
const OVERSHOOT = GOAL_RANGE + 1;

/** Unit xz vector from the threat to the bot; straight +x when the bot stands on the threat. */
function awayFrom(threat: Vec3Like, bot: Vec3Like): { x: number; z: number } {
  const dx = bot.x - threat.x;
  const dz = bot.z - threat.z;
  const length = Math.hypot(dx, dz);
  return length < 1e-6 ? { x: 1, z: 0 } : { x: dx / length, z: dz / length };
}

function rotate({ x, z }: { x: number; z: number }, degrees: number): { x: number; z: number } {
  const r = (degrees * Math.PI) / 180;
  return { x: x * Math.cos(r) - z * Math.sin(r), z: x * Math.sin(r) + z * Math.cos(r) };
}

/**
 * Column goals `distance + OVERSHOOT` from where the bot stands, heading away from the threat.
 * Measured from the start, so acceptance holds whether it measures from the threat (`from`: the
 * bot only gets farther from it) or from the start (nearest hostile).
 */
export function fleeGoals(threat: Vec3Like, start: Vec3Like, distance: number): NavigationGoal[] {
  const away = awayFrom(threat, start);
  return HEADINGS.map((degrees) => {
    const heading = rotate(away, degrees);
    const reach = distance + OVERSHOOT;
    return {
      kind: 'xz',
      x: Math.floor(start.x + heading.x * reach),
      z: Math.floor(start.z + heading.z * reach),
      range: GOAL_RANGE,
    };
  });
}

/** What the flight runs from, as its break-off names it. */
function fledFrom(args: FleeArgs): string {
  return args.clearOf?.join(' and ') ?? 'hostile';
}

export const fleeBindings: TreeBindings<FleeArgs> = {
  actions: {
    /**
     * Runs for the first heading with a path; a heading that fails (no path, cut short) passes to the next. A pursuer
     * of the `strikeBack` kinds that catches up is struck and the run goes on (walkStrikingBack).
     */
    flee_run: async (ctx) => {
      const { world, args } = ctx;
      const start = { ...world.position() };
      const threat = threatPosition(args, world.entities(), start);
      if (!threat)
        throw new WorldError(
          'guard_failed',
          'flee: nothing to flee from any more (no hostile within range and no `from`)',
        );
      let lastError: unknown;
      // Chasers follow at about half the bot's pace: to end `distance` clear of them it runs about twice as far.
      const reach = args.clearOf ? 2 * args.distance : args.distance;
      // Below `breakOffBelow` the walk is cut at the blow (the world's hurt), for the caller to judge again.
      const from = fledFrom(args);
      const rule = { below: args.breakOffBelow ?? 0, ...(args.judgedOn ? { judgedOn: args.judgedOn } : {}) };
      const breakOff = watchBreakOff(ctx, from, rule, {
        activity: `flight from the ${from}`,
        joined: 'came at the bot in its flight from',
      });
      try {
        for (const goal of fleeGoals(threat, start, reach)) {
          try {
            breakOff.check();
            await walkStrikingBack(breakOff.ctx, args.strikeBack ?? [], (leg) =>
              leg.actuate('goto', () => world.goto(goal, { signal: leg.signal })),
            );
            return;
          } catch (error) {
            if (breakOff.ctx.signal.aborted) throw breakOff.explain(error);
            lastError = error;
          }
        }
        throw lastError;
      } finally {
        breakOff.end();
      }
    },
  },
};
