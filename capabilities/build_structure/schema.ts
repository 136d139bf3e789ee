import { z } from 'zod';
import { BlockPosition, ItemName } from 'verbtree';
import { type BlueprintName, NAMED_BLUEPRINTS } from './blueprints.js';

const offset = z.int().min(-16).max(16);

const CustomBlueprint = z
  .strictObject({
    blocks: z
      .array(
        z
          .strictObject({ dx: offset, dy: offset, dz: offset, block: ItemName })
          .describe('One block: its offset from the origin (each -16..16) and its name.'),
      )
      .min(1)
      .max(512)
      .describe('Blocks relative to the origin, placed bottom layer first.'),
  })
  .superRefine(({ blocks }, ctx) => {
    const seen = new Map<string, number>();
    blocks.forEach(({ dx, dy, dz }, index) => {
      const key = `${dx},${dy},${dz}`;
      const first = seen.get(key);
      if (first === undefined) seen.set(key, index);
      else
        ctx.addIssue({
          code: 'custom',
          path: ['blocks', index],
          message: `repeats the offset (${key}) of blocks[${first}]; each cell takes one block`,
        });
    });
  });

export const BuildStructureArgs = z
  .strictObject({
    origin: BlockPosition.describe(
      "Where the blueprint's (0, 0, 0) lies; for shelter_3x3, the cell the bot stands in.",
    ),
    blueprint: z
      .union([z.enum(Object.keys(NAMED_BLUEPRINTS) as [BlueprintName, ...BlueprintName[]]), CustomBlueprint])
      .describe(
        'A named blueprint ("shelter_3x3": walls 2 high around the origin and a 3x3 roof, 25 blocks) or a list of blocks.',
      ),
    material: ItemName.optional().describe(
      'Build every block of the blueprint from this block instead, e.g. "cobblestone".',
    ),
  })
  .describe('Place the blocks of a blueprint at an origin, skipping those already in place, and verify every one.');

export type BuildStructureArgs = z.output<typeof BuildStructureArgs>;
