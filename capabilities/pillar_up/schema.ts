import { z } from 'zod';
import { ItemName } from 'verbtree';

export const PillarUpArgs = z
  .strictObject({
    height: z
      .int()
      .min(1)
      .max(16)
      .default(3)
      .describe('How many blocks to rise, one block placed under the bot per jump.'),
    block: ItemName.optional().describe(
      'The block to stand on, e.g. "dirt". Omit it to use a common building block the bot holds.',
    ),
  })
  .describe('Jump and place blocks underneath to rise straight up, e.g. to escape mobs or water.');

export type PillarUpArgs = z.output<typeof PillarUpArgs>;
