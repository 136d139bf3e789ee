import { z } from 'zod';

const Point = z.strictObject({ x: z.int(), y: z.int(), z: z.int() });

export const GuardAreaArgs = z
  .strictObject({
    center: Point.optional().describe('The post to guard; default: where the bot stands when the step starts.'),
    radius: z.int().min(2).max(32).default(8).describe('How far around the post a hostile mob is fought.'),
    forMs: z
      .int()
      .min(1000)
      .max(3_600_000)
      .default(60_000)
      .describe('How long to guard; cancelling the run ends it sooner (the step ends aborted).'),
  })
  .describe(
    'Stand guard at a post: fight every hostile mob that comes within the radius, then go back to the post, for a time or until the run is cancelled.',
  );

export type GuardAreaArgs = z.output<typeof GuardAreaArgs>;
