import { z } from 'zod';
import { ItemName } from 'verbtree';

export const CraftItemArgs = z
  .strictObject({
    item: ItemName.describe('The item to craft, e.g. "stone_axe" or "stick".'),
    count: z
      .int()
      .min(1)
      .max(64)
      .default(1)
      .describe(
        'How many items to make at least; the recipe repeats as often as needed (one craft yields 4 sticks, so count 5 crafts twice).',
      ),
  })
  .describe(
    'Craft an item from inventory ingredients, in the 2x2 grid or at a crafting table within 4 blocks. ' +
      'Missing ingredients and a missing table are reported as preconditions with sub-goals.',
  );

export type CraftItemArgs = z.output<typeof CraftItemArgs>;
