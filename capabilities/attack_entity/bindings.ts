import { fightUntilGone, targetOf, type TreeBindings, WorldError } from 'verbtree';
import type { AttackEntityArgs } from './schema.js';

export const attackEntityBindings: TreeBindings<AttackEntityArgs> = {
  actions: {
    attack_entity_fight: async (ctx) => {
      const target = targetOf(ctx.args);
      if (!target)
        throw new WorldError('precondition_missing', 'attack_entity: no mob was in sight when the step started');
      try {
        const { breakOffBelow: below, judgedOn } = ctx.args;
        await fightUntilGone(ctx, target, ctx.args.within, undefined, { below, judgedOn });
      } catch (error) {
        // A close-in under arrows that finds no way up to its mob ends at once, not retried: it is judged again.
        if (!ctx.args.giveUpUnreachable || !(error instanceof WorldError) || error.code !== 'no_path') throw error;
        throw new WorldError(
          'precondition_missing',
          `the ${target.name} cannot be reached (${error.message}): the close-in ends to be judged again`,
        );
      }
    },
  },
};
