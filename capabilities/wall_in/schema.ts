import { z } from 'zod';
import { ItemName } from 'verbtree';

export const WallInArgs = z
  .strictObject({
    block: ItemName.optional().describe(
      'The block to build the wall of, e.g. "cobblestone". Omit it to use a common building block the bot holds.',
    ),
  })
  .describe(
    'Wall the bot in where it stands: a block on each of its four sides at feet and head level, so walkers cannot reach it.',
  );

export type WallInArgs = z.output<typeof WallInArgs>;
