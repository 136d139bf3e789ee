import { z } from 'zod';
import { BlockOrTag } from 'verbtree';

export const CollectBlockArgs = z
  .strictObject({
    block: BlockOrTag.describe(
      'The block to gather, e.g. "oak_log", or a tag for any of a kind: "#logs", "#stone", "#coal_ores", "#iron_ores".',
    ),
    count: z
      .int()
      .min(1)
      .max(64)
      .default(1)
      .describe(
        'How many of its drops the pack must gain (logs for logs; cobblestone for stone; raw_iron for iron ore).',
      ),
    radius: z
      .int()
      .min(1)
      .max(64)
      .default(32)
      .describe(
        'How far to look for the block, from the bot or from where the step started (a step interrupted by a flee resumes elsewhere).',
      ),
  })
  .describe(
    'Find the nearest such blocks within the radius, walk to each, dig it with the best tool in the pack and pick up what it drops, until the pack holds `count` more of its drops.',
  );

export type CollectBlockArgs = z.output<typeof CollectBlockArgs>;
