import { createRequire } from 'node:module';
import fc from 'fast-check';
import type { Bot } from 'mineflayer';
import type { goals as PathfinderGoals } from 'mineflayer-pathfinder';
import { describe, expect, it } from 'vitest';
import type { Vec3 } from 'vec3';
import { towardFrontier } from '../../src/world/mineflayer/frontier-goal.js';

const { goals } = createRequire(import.meta.url)('mineflayer-pathfinder') as { goals: typeof PathfinderGoals };

/** A rectangle of loaded columns (column coordinates, inclusive), the rest of the world unloaded. */
interface Loaded {
  minX: number;
  maxX: number;
  minZ: number;
  maxZ: number;
}

const columnOf = (block: number) => Math.floor(block / 16);
const isLoaded = (area: Loaded, x: number, z: number) =>
  columnOf(x) >= area.minX && columnOf(x) <= area.maxX && columnOf(z) >= area.minZ && columnOf(z) <= area.maxZ;

function botIn(area: Loaded): Bot {
  return { world: { getColumnAt: (at: Vec3) => (isLoaded(area, at.x, at.z) ? {} : undefined) } } as unknown as Bot;
}

const area = fc
  .record({ x: fc.integer({ min: -4, max: 3 }), z: fc.integer({ min: -4, max: 3 }), w: fc.nat(3), d: fc.nat(3) })
  .map(({ x, z, w, d }): Loaded => ({ minX: x, maxX: x + w, minZ: z, maxZ: z + d }));
const block = fc.integer({ min: -100, max: 100 });

describe('towardFrontier', () => {
  it('ends a search at the goal, or, while its column is unloaded, where the next column toward it is unloaded', () => {
    fc.assert(
      fc.property(area, block, block, block, block, (loaded, tx, tz, nx, nz) => {
        fc.pre(isLoaded(loaded, nx, nz));
        const inner = new goals.GoalBlock(tx, 5, tz);
        const goal = towardFrontier(botIn(loaded), inner, { x: tx, z: tz });
        const node = { x: nx, y: 5, z: nz };
        const towardX = nx + Math.sign(tx - nx);
        const towardZ = nz + Math.sign(tz - nz);
        const edge =
          (towardX !== nx && !isLoaded(loaded, towardX, nz)) || (towardZ !== nz && !isLoaded(loaded, nx, towardZ));
        const goalUnloaded = !isLoaded(loaded, tx, tz);
        expect(goal.isEnd(node as never)).toBe(inner.isEnd(node as never) || (goalUnloaded && edge));
        expect(goal.stoppedShort()).toBe(goalUnloaded);
        expect(goal.heuristic(node as never)).toBe(inner.heuristic(node as never));
      }),
      { numRuns: 2000 },
    );
  });
});
