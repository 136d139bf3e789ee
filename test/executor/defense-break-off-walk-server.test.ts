import { describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { match } from '../helpers/matchers.js';
import { embeddedSuite } from '../helpers/embedded.js';

// Midnight, no daylight cycle; the bot spawns at 0,5,0 at full health and bare-handed. The husk it is sent to fight
// stands 14 blocks east, its AI off: it does not come, so the fight walks up to it, one walk of some 3 s.
const suite = embeddedSuite({
  timeOfDay: 18_000,
  mobs: [{ name: 'husk', x: 14, y: 5, z: 0, ai: false }],
});

/** Where the walk is when the blow lands: a third of the way. */
const BLOW_AT_X = 4;

/** Whether the server holds the bot where it held it a quarter of a second ago. */
async function atRest(): Promise<boolean> {
  const before = suite.server.player('walker')!.position.x;
  await new Promise((resolve) => setTimeout(resolve, 250));
  return Math.abs(suite.server.player('walker')!.position.x - before) < 0.05;
}

describe('a fight breaks off within a move, on the embedded server (issue 30)', () => {
  it('a blow to 14 on the walk up to a husk, the break-off at 16: the walk stops where the blow found the bot, and the step fails preempted', async () => {
    // A blow from outside the fight (an arrow, say), dealt by the server once the bot is on its way.
    const blow = setInterval(() => {
      const player = suite.server.player('walker');
      if (!player || player.position.x < BLOW_AT_X) return;
      clearInterval(blow);
      suite.server.setHealth('walker', 14);
    }, 50);
    let endedAt: { x: number } | null = null;
    try {
      const { result, bot } = await suite.run(
        'walker',
        [{ stepId: 'fight', type: 'attack_entity', args: { target: { name: 'husk' }, breakOffBelow: 16 } }],
        {
          onEvent: (event) => {
            if (event.type === 'step.ended') endedAt = { ...suite.server.player('walker')!.position };
          },
        },
      );
      const outcome = result.steps[0]!.outcome;
      const summary = JSON.stringify({ outcome, endedAt });
      expect(outcome, summary).toMatchObject({
        ok: false,
        code: 'preempted',
        detail: match.stringContaining('health 14 is below 16: the fight with the husk breaks off to be judged again'),
      });
      // Read between moves only, the break-off came once the walk was done, a block from the husk (x 12.5 and more).
      expect(endedAt!.x, summary).toBeLessThan(BLOW_AT_X + 3);
      // The walk was cancelled, not left running: the bot comes to rest short of the husk.
      expect(await eventually(atRest), summary).toBe(true);
      expect(suite.server.player('walker')!.position.x, summary).toBeLessThan(BLOW_AT_X + 4);
      await bot.close();
    } finally {
      clearInterval(blow);
    }
  }, 60_000);
});
