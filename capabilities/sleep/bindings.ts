import { type TreeBindings, withinReach, WorldError } from 'verbtree';
import { bedOf } from './bed.js';
import type { SleepArgs } from './schema.js';

const APPROACH_RANGE = 2;

function bedFor(args: SleepArgs) {
  const bed = bedOf(args);
  if (!bed) throw new WorldError('precondition_missing', 'sleep: no bed was in sight when the step started');
  return bed;
}

export const sleepBindings: TreeBindings<SleepArgs> = {
  conditions: {
    sleep_bed_in_reach: ({ world, args }) => withinReach(world.position(), bedFor(args)),
  },
  actions: {
    sleep_approach_bed: (ctx) => {
      const goal = { kind: 'near' as const, ...bedFor(ctx.args), range: APPROACH_RANGE };
      return ctx.actuate('goto', () => ctx.world.goto(goal, { signal: ctx.signal }));
    },
    sleep_sleep: (ctx) => {
      const { world } = ctx;
      if (!world.sleep) throw new WorldError('guard_failed', `sleep: the ${world.kind} world has no bed actuator`);
      return ctx.actuate('sleep', () => world.sleep!(bedFor(ctx.args), { signal: ctx.signal }));
    },
  },
};
