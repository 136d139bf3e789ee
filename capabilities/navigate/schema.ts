import { z } from 'zod';
import { Coordinate } from 'verbtree';

const range = z.number().positive().max(64);

export const NavigateArgs = z
  .strictObject({
    target: z.discriminatedUnion('kind', [
      z.strictObject({
        kind: z.literal('block'),
        x: Coordinate.horizontal,
        y: Coordinate.vertical,
        z: Coordinate.horizontal,
      }),
      z.strictObject({
        kind: z.literal('near'),
        x: Coordinate.horizontal,
        y: Coordinate.vertical,
        z: Coordinate.horizontal,
        range: range.default(2),
      }),
      z.strictObject({
        kind: z.literal('xz'),
        x: Coordinate.horizontal,
        z: Coordinate.horizontal,
        range: range.default(1),
      }),
    ]),
  })
  .describe('Walk to stand on a block, to within `range` of a point, or into a column.');

export type NavigateArgs = z.output<typeof NavigateArgs>;
