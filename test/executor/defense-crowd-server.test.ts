import { describe, it } from 'vitest';
import { embeddedSuite } from '../helpers/embedded.js';
import { watchLowestHealth } from '../helpers/health-watch.js';
import { expectWonFight } from '../helpers/won-fight.js';

// Midnight, no daylight cycle; the bot spawns at 0,5,0 at full health with a stone sword and no armour, and three
// zombies stand around the way to its goal 14 blocks east, their AI on (src/world/mob-rules/): they come for the bot
// together. Issue 30 §5: a competent player kills them, and so does the bot, as it fights (src/kit/fight-moves.ts).
const suite = embeddedSuite({
  timeOfDay: 18_000,
  bot: { inventory: { stone_sword: 1 } },
  mobs: [
    { name: 'zombie', x: 7, y: 5, z: 1 },
    { name: 'zombie', x: 6, y: 5, z: -5 },
    { name: 'zombie', x: 9, y: 5, z: 5 },
  ],
});

describe('three zombies against a stone sword at full health, on the embedded server', () => {
  it('the bot fights them (the assessment says why), kills all three as the server holds them, lives, and its walk ends verified', async () => {
    const health = watchLowestHealth(() => suite.server, 'knight');
    try {
      const run = await suite.run('knight', [
        { stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', x: 14, y: 5, z: 0 } } },
      ]);
      await expectWonFight(
        run,
        health.lowest(),
        /^fight: 3 zombies, stone_sword 5 per hit, expected [\d.]+ damage taken of \d+$/,
      );
    } finally {
      health.stop();
    }
  }, 180_000);
});
