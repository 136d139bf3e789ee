import { z } from 'zod';
import { BlockPosition, ItemName } from 'verbtree';

export const DigBlockArgs = z
  .strictObject({
    position: BlockPosition.describe('The block to break. The bot walks within reach first.'),
    block: ItemName.optional().describe(
      'The block expected there, e.g. "oak_log". When given, the step is refused if the world shows another block.',
    ),
  })
  .describe('Break one block and leave air in its place. Drops stay on the ground; follow with collect_drops.');

export type DigBlockArgs = z.output<typeof DigBlockArgs>;
