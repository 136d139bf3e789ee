import { z } from 'zod';
import { ItemName } from 'verbtree';

export const SmeltItemArgs = z
  .strictObject({
    item: ItemName.describe(
      'What to smelt into, e.g. "iron_ingot", "stone" or "charcoal"; the input comes from the pack (raw_iron, cobblestone, a log).',
    ),
    count: z.int().min(1).max(64).default(1).describe('How many to make; a furnace cooks one every 10 s.'),
    fuel: ItemName.optional().describe(
      'The fuel to burn, e.g. "coal"; default: the longest-burning fuel the pack holds enough of.',
    ),
  })
  .describe(
    'Smelt items in a furnace within reach (placed first when none stands near): load the input and fuel, wait, take the output.',
  );

export type SmeltItemArgs = z.output<typeof SmeltItemArgs>;
