import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PATHFINDER_ARRIVAL_TOLERANCE, keepNodesInsideTheirCells } from '../../src/world/mineflayer/arrival-nodes.js';

const coordinate = fc.double({ min: -64, max: 64, noNaN: true, noDefaultInfinity: true });
const node = fc.record({ x: coordinate, y: fc.integer({ min: -64, max: 320 }), z: coordinate });

describe('keepNodesInsideTheirCells: pathfinder calls a node reached only from inside its cell', () => {
  it('every point within the arrival tolerance of a moved node lies in the cell the node was in', () => {
    fc.assert(
      fc.property(fc.array(node, { maxLength: 8 }), (path) => {
        const before = path.map((n) => ({ ...n }));
        keepNodesInsideTheirCells(path);
        path.forEach((moved, i) => {
          const was = before[i]!;
          expect(moved.y).toBe(was.y);
          for (const axis of ['x', 'z'] as const) {
            const cell = Math.floor(was[axis]);
            expect(moved[axis] - PATHFINDER_ARRIVAL_TOLERANCE).toBeGreaterThan(cell);
            expect(moved[axis] + PATHFINDER_ARRIVAL_TOLERANCE).toBeLessThan(cell + 1);
            // Moved no further than to the tolerance's edge: a centred node stays where pathfinder put it.
            expect(Math.abs(moved[axis] - was[axis])).toBeLessThanOrEqual(
              Math.max(0, PATHFINDER_ARRIVAL_TOLERANCE - Math.min(was[axis] - cell, cell + 1 - was[axis])) + 1e-5,
            );
          }
        });
      }),
      { numRuns: 2000 },
    );
  });

  it("moves a young cocoa pod's node (0.34375 into its cell) to 0.35, and leaves a centred one alone", () => {
    const path = [
      { x: 0.5, y: 5, z: 5.5 },
      { x: 0.5, y: 5.75, z: 6.34375 },
    ];
    keepNodesInsideTheirCells(path);
    expect(path[0]).toEqual({ x: 0.5, y: 5, z: 5.5 });
    expect(path[1]).toMatchObject({ x: 0.5, y: 5.75 });
    expect(path[1]!.z).toBeCloseTo(6.35, 5);
  });
});
