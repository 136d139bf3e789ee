import { z } from 'zod';
import { ItemName } from 'verbtree';

const Point = z.strictObject({ x: z.int(), y: z.int(), z: z.int() });

/** What store_items and take_items take: an item, how many, and which chest. */
export function chestTransferArgs(verb: 'store' | 'take') {
  return z
    .strictObject({
      item: ItemName.describe(
        verb === 'store'
          ? 'What to put in the chest, e.g. "cobblestone".'
          : 'What to take from the chest, e.g. "iron_ingot".',
      ),
      count: z
        .int()
        .min(1)
        .max(27 * 64)
        .describe('How many; a chest holds 27 stacks.'),
      chest: Point.optional().describe(
        'The chest (or barrel) to use; default: the nearest one in the open within 32 blocks.',
      ),
    })
    .describe(
      verb === 'store'
        ? 'Walk to a chest and put items from the pack into it.'
        : 'Walk to a chest and take items from it into the pack.',
    );
}

export const StoreItemsArgs = chestTransferArgs('store');
export type StoreItemsArgs = z.output<typeof StoreItemsArgs>;
