import { BlockOrTag } from 'verbtree';
import { z } from 'zod';

export const ExploreArgs = z
  .strictObject({
    block: BlockOrTag.describe(
      'The block to bring into sight, e.g. "iron_ore", or a tag: "#logs", "#stone", "#coal_ores", "#iron_ores".',
    ),
    radius: z.int().min(8).max(256).default(96).describe('How far from where the step starts to walk, at most.'),
    sight: z
      .int()
      .min(4)
      .max(64)
      .default(32)
      .describe('How near the block must be to count as in sight (collect_block looks this far by default).'),
  })
  .describe(
    'Walk outward from where the bot stands, lookout by lookout, until a block of the kind lies in the open within `sight` of the bot.',
  );

export type ExploreArgs = z.output<typeof ExploreArgs>;
