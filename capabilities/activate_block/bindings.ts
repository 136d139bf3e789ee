import { blockKey, sameBlockState, type TreeBindings, withinReach, WorldError } from 'verbtree';
import type { ActivateBlockArgs } from './schema.js';
import { aimOf, cellOf } from './target.js';

const APPROACH_RANGE = 2;

export const activateBlockBindings: TreeBindings<ActivateBlockArgs> = {
  conditions: {
    activate_block_in_reach: ({ world, args }) => withinReach(world.position(), cellOf(args)),
  },
  actions: {
    activate_block_approach: (ctx) => {
      const goal = { kind: 'near' as const, ...cellOf(ctx.args), range: APPROACH_RANGE };
      return ctx.actuate('goto', () => ctx.world.goto(goal, { signal: ctx.signal }));
    },
    activate_block_use: async (ctx) => {
      const { world, args } = ctx;
      if (!world.activate)
        throw new WorldError('guard_failed', `activate_block: the ${world.kind} world cannot use blocks`);
      const aim = aimOf(args);
      if (!aim?.ok)
        throw new WorldError(
          'guard_failed',
          `activate_block: ${aim?.reason ?? 'the block was not observed when the step started'}`,
        );
      const target = aim.state;
      // Already as asked (a state wanted that holds, or a retry after the click landed): using it again would undo it.
      const now = (await world.observe({ states: [cellOf(args)] })).states?.[blockKey(cellOf(args))];
      if (now && sameBlockState(now, target)) return;
      return ctx.actuate('activate', () =>
        world.activate!(cellOf(args), { signal: ctx.signal, ...(args.item ? { item: args.item } : {}) }),
      );
    },
  },
};
