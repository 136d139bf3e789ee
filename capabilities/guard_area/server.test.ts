import { describe, expect, it } from 'vitest';
import { embeddedSuite } from '../../test/helpers/embedded.js';

// Bots spawn at 0,5,0; a zombie stands inside an 8-block radius, a skeleton well outside.
const suite = embeddedSuite({
  mobs: [
    { name: 'zombie', x: 4, y: 5, z: 3 },
    { name: 'skeleton', x: 30, y: 5, z: 0 },
  ],
});

describe('guard_area on the embedded server', () => {
  it('clears the area of the zombie, leaves the skeleton outside, and ends back at the post', async () => {
    const { result, bot } = await suite.run('sentry', [
      { stepId: 'guard', type: 'guard_area', args: { radius: 8, forMs: 15_000 } },
    ]);
    expect(result.ok, JSON.stringify(result.steps.map((s) => s.outcome))).toBe(true);
    const seen = await bot.observe({ entities: { names: ['zombie', 'skeleton'] } });
    expect(seen.entities!.filter((e) => Math.hypot(e.position.x - 0.5, e.position.z - 0.5) <= 8)).toEqual([]);
    expect(seen.entities!.map((e) => e.name)).toContain('skeleton');
    const at = suite.server.player('sentry')!.position;
    expect(Math.hypot(at.x - 0.5, at.z - 0.5)).toBeLessThanOrEqual(3);
  }, 60_000);
});
