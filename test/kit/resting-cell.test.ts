import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { restingCell } from '../../src/kit/drops.js';

/*
 * Where a drop lands, for any column: the first cell at or below where it was seen with a solid block under it.
 * Non-solid blocks (grass, a torch, water) it falls through, as a server lets it.
 */
describe('restingCell', () => {
  const names = ['air', 'short_grass', 'torch', 'water', 'stone', 'oak_log', 'dirt'] as const;
  const solid = new Set(['stone', 'oak_log', 'dirt']);

  it('is the first cell at or below the drop with something solid under it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...names), { minLength: 2, maxLength: 20 }),
        fc.integer({ min: 1, max: 19 }),
        fc.double({ min: 0, max: 0.99, noNaN: true }),
        (column, seenAt, fraction) => {
          const y = Math.min(seenAt, column.length - 1);
          const world = {
            blockAt: (p: { x: number; y: number; z: number }) =>
              p.x === 3 && p.z === -2 && p.y >= 0 && p.y < column.length ? { name: column[p.y]! } : null,
          } as never;
          const rest = restingCell(world, { x: 3.4, y: y + fraction, z: -1.6 });
          let expected = y;
          while (expected > 0 && !solid.has(column[expected - 1]!)) expected--;
          // Below the column's bottom nothing is known: it rests at the bottom cell.
          expect(rest).toEqual({ x: 3, y: expected, z: -2 });
        },
      ),
    );
  });
});
