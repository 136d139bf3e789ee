import { z } from 'zod';
import { ItemName } from 'verbtree';

export const CollectDropsArgs = z
  .strictObject({
    item: ItemName.optional().describe(
      'Only pick up this item, e.g. "oak_log". Omit it to pick up whatever lies nearby.',
    ),
    radius: z.number().min(1).max(32).default(8).describe('How far from the bot to look for dropped items, in blocks.'),
  })
  .describe('Walk over dropped items near the bot to pick them up.');

export type CollectDropsArgs = z.output<typeof CollectDropsArgs>;
