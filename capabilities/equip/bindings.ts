import type { TreeBindings } from 'verbtree';
import type { EquipArgs } from './schema.js';

export const equipBindings: TreeBindings<EquipArgs> = {
  actions: {
    equip_put_on: (ctx) =>
      ctx.actuate('equip', () => ctx.world.equip(ctx.args.item, ctx.args.destination, { signal: ctx.signal })),
  },
};
