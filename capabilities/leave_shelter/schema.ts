import { z } from 'zod';
import { BlockPosition } from 'verbtree';

export const LeaveShelterArgs = z
  .strictObject({
    shelter: z
      .enum(['pillar_up', 'wall_in', 'dig_in'])
      .describe(
        'The shelter the bot stands in: "pillar_up" (on a pillar), "wall_in" (behind a wall), "dig_in" (in a hole).',
      ),
    to: BlockPosition.describe(
      "The ground cell outside to stand in: the pillar's foot (same x and z, lower y), two cells out through one wall side at feet level, or out of a hole a cell beside it 1 or more blocks up (climbed to) or the top of a staircase n cells out and n blocks up along x or z (cut).",
    ),
  })
  .describe(
    'Come out of a shelter the bot built: dig a pillar down, break through a wall, or open a hole and climb or cut stairs out, then stand on the ground outside.',
  );

export type LeaveShelterArgs = z.output<typeof LeaveShelterArgs>;
