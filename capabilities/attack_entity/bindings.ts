import { fightUntilGone, targetOf, type TreeBindings, WorldError } from 'verbtree';
import type { AttackEntityArgs } from './schema.js';

export const attackEntityBindings: TreeBindings<AttackEntityArgs> = {
  actions: {
    attack_entity_fight: (ctx) => {
      const target = targetOf(ctx.args);
      if (!target)
        throw new WorldError('precondition_missing', 'attack_entity: no mob was in sight when the step started');
      return fightUntilGone(ctx, target, ctx.args.within, undefined, ctx.args.breakOffBelow);
    },
  },
};
