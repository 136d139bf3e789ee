import { z } from 'zod';

export const FollowEntityArgs = z
  .strictObject({
    target: z
      .union([
        z.strictObject({ id: z.int().min(0).describe('The entity id, as an observation or the world lists it.') }),
        z.strictObject({ name: z.string().min(1).describe('A mob kind or "player": the nearest one in sight.') }),
      ])
      .describe('Whom to follow: one entity by id, or the nearest of a kind.'),
    within: z.int().min(1).max(64).default(16).describe('How far the entity is looked for at the start.'),
    range: z.number().min(1).max(16).default(3).describe('Keep within this many blocks of it.'),
    forMs: z
      .int()
      .min(1000)
      .max(3_600_000)
      .default(60_000)
      .describe('How long to follow; cancelling the run ends it sooner (the step ends aborted).'),
  })
  .describe(
    'Follow an entity, keeping within range of it, for a time or until the run is cancelled; standing still while it does is not being stuck.',
  );

export type FollowEntityArgs = z.output<typeof FollowEntityArgs>;
