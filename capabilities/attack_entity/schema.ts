import { z } from 'zod';

export const AttackEntityArgs = z
  .strictObject({
    target: z
      .union([
        z.strictObject({ id: z.int().min(0).describe('The entity id, as an observation or the world lists it.') }),
        z.strictObject({
          name: z.string().min(1).describe('A mob kind, e.g. "zombie" or "cow": the nearest one in sight.'),
        }),
      ])
      .describe('Which mob: one entity by id, or the nearest of a kind.'),
    within: z
      .int()
      .min(1)
      .max(64)
      .default(16)
      .describe('How far the mob is looked for, and how far it may lead the bot before the fight is given up.'),
    breakOffBelow: z
      .number()
      .min(0)
      .max(20)
      .optional()
      .describe(
        'Health below which the fight breaks off (fails `preempted`) so that it is judged again; the safety layer sets it from its estimate of the fight. Absent: fight to the end.',
      ),
    judgedOn: z
      .array(z.int().min(0))
      .optional()
      .describe(
        'The entity ids of the mobs the fight was judged on (its targets and the walkers counted as joining it): another hostile that comes within reach of the bot (a walker about 2 s of its walk from a blow, an archer in its bow range with a line of sight) breaks the fight off (fails `preempted`) so that the new encounter is judged; the safety layer sets it. Absent: no hostile does.',
      ),
    giveUpUnreachable: z
      .boolean()
      .optional()
      .describe(
        'When no path leads up to the mob, fail `precondition_missing` at once (never retried) rather than `no_path`: the safety layer sets it on a close-in at an archer, which a bot cannot reach on a ledge and must not walk at again under its arrows. Absent: a failed approach is retried.',
      ),
  })
  .describe(
    'Fight a mob until it is dead with what the hand holds, as a player fights: strike at full charge (critical when a jump fits), back away from the crowd while the weapon recharges, walk up to a mob that does not come.',
  );

export type AttackEntityArgs = z.output<typeof AttackEntityArgs>;
