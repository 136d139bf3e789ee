import { z } from 'zod';
import { BlockPosition } from 'verbtree';

export const FleeArgs = z
  .strictObject({
    from: BlockPosition.optional().describe(
      'The danger to run from. Omit it to run from the nearest hostile mob within 32 blocks.',
    ),
    distance: z.number().min(4).max(64).default(16).describe('How far from the danger the bot must end up, in blocks.'),
    clearOf: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .describe(
        'Mob kinds to get away from, e.g. ["zombie", "skeleton"]: the bot runs from the centre of those within 32 blocks (unless `from` is given) and ends with none of them alive within `distance` of it, judged where the chasers are, not where they were.',
      ),
    strikeBack: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .describe(
        'Mob kinds the bot cannot outrun, e.g. ["spider"]: one that catches up within sword\'s reach is struck at full charge (a sprinting hit knocks it back) and the flight runs on. Never a player.',
      ),
    breakOffBelow: z
      .number()
      .min(0)
      .max(20)
      .optional()
      .describe(
        'Health below which the flight stops, failing `preempted`, for the caller to judge again: a flight under arrows that costs more than it was judged to. Omit it to run on whatever it costs.',
      ),
    judgedOn: z
      .array(z.number().int())
      .optional()
      .describe(
        'Entity ids of the hostiles the flight was judged with (every one seen when its way was chosen): another hostile that comes within its reach of the bot on the way (a creeper within its fuse range and a walk, a walker within its reach, an archer in bow range with a line of sight) stops the flight, failing `preempted`, for the caller to judge again. Omit it to run whatever comes.',
      ),
  })
  .describe('Run away from a position or from the nearest hostile mob until at a safe distance.');

export type FleeArgs = z.output<typeof FleeArgs>;
