import { describe, it } from 'vitest';
import { embeddedSuite } from '../helpers/embedded.js';
import { watchLowestHealth } from '../helpers/health-watch.js';
import { expectWonFight } from '../helpers/won-fight.js';

// Midnight, no daylight cycle; the bot spawns at 0,5,0 at full health with a stone sword, and a zombie stands on the
// way to its goal 14 blocks east, its AI on (src/world/mob-rules/): it comes for the bot and hits it. (Three at once:
// defense-crowd-server.test.ts.)
const suite = embeddedSuite({
  timeOfDay: 18_000,
  bot: { inventory: { stone_sword: 1 } },
  mobs: [{ name: 'zombie', x: 7, y: 5, z: 1 }],
});

describe('a zombie against a stone sword at full health, on the embedded server', () => {
  it('the bot fights it (the assessment says why), kills it as the server holds it, lives, and its walk ends verified', async () => {
    const health = watchLowestHealth(() => suite.server, 'swordsman');
    try {
      const run = await suite.run('swordsman', [
        { stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', x: 14, y: 5, z: 0 } } },
      ]);
      await expectWonFight(
        run,
        health.lowest(),
        /^fight: a zombie, stone_sword 5 per hit, expected [\d.]+ damage taken of \d+$/,
      );
    } finally {
      health.stop();
    }
  }, 180_000);
});
