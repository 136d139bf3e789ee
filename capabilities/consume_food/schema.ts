import { z } from 'zod';
import { ItemName } from 'verbtree';

export const ConsumeFoodArgs = z
  .strictObject({
    item: ItemName.optional().describe(
      'The food to eat, e.g. "bread". Omit it to let the bot choose the food that best fills its hunger without waste.',
    ),
  })
  .describe('Eat one food item to restore hunger. Refused when the bot is not hungry.');

export type ConsumeFoodArgs = z.output<typeof ConsumeFoodArgs>;
