import { describe, expect, it } from 'vitest';
import { embeddedSuite } from '../helpers/embedded.js';
import { eventually } from '../helpers/eventually.js';

// A spider on the embedded server, by the shared mob rules: at night it walks up to a platform three blocks high that
// a zombie could never step onto, climbs its wall and bites the bot standing on top (2 a bite, Normal).
const suite = embeddedSuite({
  timeOfDay: 18_000,
  spawn: { x: 0, y: 8, z: 0 },
  fills: [{ from: { x: -1, y: 5, z: -1 }, to: { x: 1, y: 7, z: 1 }, block: 'stone' }],
  mobs: [{ name: 'spider', x: 6, y: 5, z: 0 }],
});

describe('a spider on the embedded server', () => {
  it('climbs a 3-block wall to the bot on top of it and bites it', async () => {
    const bot = await suite.world.connectBot('perched');
    const spider = async () => (await bot.observe({ entities: { names: ['spider'], within: 32 } })).entities![0]!;
    expect((await spider()).health).toBe(16);
    expect(await eventually(() => suite.server.player('perched')!.health < 20, 30_000)).toBe(true);
    expect(20 - suite.server.player('perched')!.health).toBe(2);
    expect((await spider()).position.y).toBe(8);
    expect(bot.position().y).toBe(8);
    // After the bot, and showing it: its "aggressive" flag, as the world port reads it.
    expect(bot.entities().find((e) => e.name === 'spider')?.aggressive).toBe(true);
  }, 60_000);
});
