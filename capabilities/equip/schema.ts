import { z } from 'zod';
import { ItemName } from 'verbtree';

export const EquipDestination = z.enum(['hand', 'off-hand', 'head', 'torso', 'legs', 'feet']);

export const EquipArgs = z
  .strictObject({
    item: ItemName.describe('The item to equip, e.g. "stone_axe" or "iron_helmet"; it must be in the inventory.'),
    destination: EquipDestination.default('hand').describe(
      'Where to put it: a hand, or an armor slot that fits the item.',
    ),
  })
  .describe('Move an inventory item into the main hand, the off-hand or an armor slot.');

export type EquipArgs = z.output<typeof EquipArgs>;
