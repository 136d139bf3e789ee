import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judgeStep, observation } from '../../src/testing/index.js';
import explore from './index.js';
import { lookouts } from './lookouts.js';

const parse = (args: unknown) => explore.inputSchema.parse(args);

describe('explore arguments and acceptance', () => {
  it('defaults radius to 96 and sight to 32; refuses a name that is neither a block nor a tag', () => {
    expect(parse({ block: '#iron_ores' })).toEqual({ block: '#iron_ores', radius: 96, sight: 32 });
    const bad = explore.inputSchema.safeParse({ block: 'iron_oar' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toContain('#iron_ores');
  });

  it('ok only when the world shows a block of the kind in the open within sight of where the bot ends', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 4, max: 64 }),
        fc.double({ min: 0, max: 200, noNaN: true }),
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
        (sight, d, angle) => {
          const args = parse({ block: 'iron_ore', sight });
          const pre = observation();
          const at = (distance: number) => ({
            x: Math.round(Math.cos(angle) * distance),
            y: 0,
            z: Math.round(Math.sin(angle) * distance),
          });
          const found = at(d);
          const verdict = judgeStep(explore, pre, observation({ position: { x: 0, y: 0, z: 0 }, found }), args);
          expect(verdict.ok).toBe(Math.hypot(found.x, found.y, found.z) <= sight + 1);
          // None in sight, or the world was never searched: not done.
          expect(judgeStep(explore, pre, observation({ found: null }), args).ok).toBe(false);
          expect(judgeStep(explore, pre, observation(), args).ok).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('lookouts come ring by ring, 16 blocks apart, none past the radius', () => {
    fc.assert(
      fc.property(fc.integer({ min: 8, max: 256 }), (radius) => {
        const points = lookouts({ x: 0, y: 0, z: 0 }, radius);
        expect(points).toHaveLength(8 * Math.floor(radius / 16));
        for (const p of points) expect(Math.hypot(p.x, p.z)).toBeLessThanOrEqual(radius + 1);
        const rings = points.map((p) => Math.round(Math.hypot(p.x, p.z) / 16));
        expect(rings).toEqual([...rings].sort((a, b) => a - b));
      }),
    );
  });
});
