import { describe, expect, it } from 'vitest';
import { embeddedSuite } from '../../test/helpers/embedded.js';

// Bots spawn at 0,5,0 at night holding an iron sword. The mobs live by the game's rules (src/world/mob-rules/): a
// zombie stands inside the 8-block radius, another 16 blocks off comes to the post (a zombie's follow range is 35),
// and a skeleton 30 blocks off stays where it is (its follow range is 16).
const suite = embeddedSuite({
  timeOfDay: 18_000,
  bot: { inventory: { iron_sword: 1 } },
  mobs: [
    { name: 'zombie', x: 4, y: 5, z: 3 },
    { name: 'zombie', x: 16, y: 5, z: -2 },
    { name: 'skeleton', x: 30, y: 5, z: 0 },
  ],
});

describe('guard_area on the embedded server', () => {
  it('holds its post against the zombies that come to it, leaves the skeleton outside, and ends at the post, alive', async () => {
    const { result, bot, deaths } = await suite.run('sentry', [
      { stepId: 'guard', type: 'guard_area', args: { radius: 8, forMs: 15_000 } },
    ]);
    expect(result.ok, JSON.stringify(result.steps.map((s) => s.outcome))).toBe(true);
    const seen = (await bot.observe({ entities: { names: ['zombie', 'skeleton'], within: 64 } })).entities!;
    expect(seen.filter((e) => Math.hypot(e.position.x - 0.5, e.position.z - 0.5) <= 8)).toEqual([]);
    // Each zombie came and was fought: dead, or driven out hurt.
    expect(seen.filter((e) => e.name === 'zombie' && e.health === 20)).toEqual([]);
    expect(seen.map((e) => e.name)).toContain('skeleton');
    const at = suite.server.player('sentry')!.position;
    expect(Math.hypot(at.x - 0.5, at.z - 0.5)).toBeLessThanOrEqual(3);
    expect(deaths, JSON.stringify(deaths)).toEqual([]);
  }, 60_000);
});
