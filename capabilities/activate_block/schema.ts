import { z } from 'zod';

export const ActivateBlockArgs = z
  .strictObject({
    x: z.int(),
    y: z.int(),
    z: z.int(),
    item: z
      .string()
      .min(1)
      .optional()
      .describe(
        'An item to hold while using the block, e.g. "wooden_hoe" to till dirt; default: whatever the hand holds.',
      ),
    state: z
      .enum(['open', 'closed', 'on', 'off'])
      .optional()
      .describe(
        'The state wanted: open/closed for a door, trapdoor or fence gate, on/off for a lever; already so, nothing is done. Default: use it once (toggle).',
      ),
  })
  .describe(
    'Walk up to a block and use it (a right click): open or shut a door, trapdoor or fence gate, flip a lever, till soil with a hoe.',
  );

export type ActivateBlockArgs = z.output<typeof ActivateBlockArgs>;
