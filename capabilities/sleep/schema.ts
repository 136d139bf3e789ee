import { z } from 'zod';

const Point = z.strictObject({ x: z.int(), y: z.int(), z: z.int() });

export const SleepArgs = z
  .strictObject({
    bed: Point.optional().describe(
      'The bed to sleep in (either half); default: the nearest one in the open within 32 blocks.',
    ),
  })
  .describe('Walk to a bed and sleep through the night; fails with the reason by day or with a monster near.');

export type SleepArgs = z.output<typeof SleepArgs>;
