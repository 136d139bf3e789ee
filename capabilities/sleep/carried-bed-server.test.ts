import { describe, expect, it } from 'vitest';
import { embeddedSuite } from '../../test/helpers/embedded.js';

// Midnight, no bed anywhere; the bot carries one.
const suite = embeddedSuite({ timeOfDay: 18_000, bot: { inventory: { blue_bed: 1 } } });

describe('sleep with a bed in the pack on the embedded server', () => {
  it('places it beside the bot, both halves as the server holds them, sleeps, and the server holds the morning', async () => {
    const { result, bot } = await suite.run('camper', [{ stepId: 'camp', type: 'sleep', args: {} }]);
    expect(result.ok, JSON.stringify(result.steps.map((s) => s.outcome))).toBe(true);
    expect(suite.server.timeOfDay()).toBeLessThan(1_000);
    const halves = bot.findBlocks({ names: ['blue_bed'], maxDistance: 4, count: 4 });
    expect(halves).toHaveLength(2);
    for (const half of halves) expect(await suite.server.blockAt(half)).toBe('blue_bed');
    expect(suite.server.player('camper')!.inventory.blue_bed ?? 0).toBe(0);
  }, 60_000);
});
