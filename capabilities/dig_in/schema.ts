import { z } from 'zod';
import { ItemName } from 'verbtree';

export const DigInArgs = z
  .strictObject({
    block: ItemName.optional().describe(
      'The block to close the hole with, e.g. "dirt". Omit it to use a common building block the bot holds.',
    ),
  })
  .describe(
    'Dig straight down into the ground until the bot stands two blocks deep below a closed top: no walker, climber or archer reaches it.',
  );

export type DigInArgs = z.output<typeof DigInArgs>;
