import { z } from 'zod';
import { BlockPosition, ItemName } from 'verbtree';

export const PlaceBlockArgs = z
  .strictObject({
    position: BlockPosition.describe(
      'The cell to fill. It must be air or replaceable (grass, water, snow…) and touch a solid block.',
    ),
    item: ItemName.describe('The block item to place, e.g. "cobblestone"; it must be in the inventory.'),
  })
  .describe(
    'Place one block from the inventory into an empty cell. The bot walks within reach first and never places into its own space.',
  );

export type PlaceBlockArgs = z.output<typeof PlaceBlockArgs>;
