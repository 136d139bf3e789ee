import { describe, expect, it } from 'vitest';
import type { Death } from '../../src/contracts/world.js';
import { eventually } from '../helpers/eventually.js';
import { match } from '../helpers/matchers.js';
import { embeddedSuite } from '../helpers/embedded.js';

// Noon, nothing hostile: the bot walks 30 blocks east from 0,5,0, some 7 s, and the server kills it on the way.
const suite = embeddedSuite({});

/** Where the walk is when the server kills the bot. */
const KILL_AT_X = 4;

describe('a death mid-step on the embedded server (issue 30)', () => {
  it('the server sets the walking bot to 0 health: the world says it died, the walk and the plan end `died`, not ok, and the bot comes back at the spawn', async () => {
    const kill = setInterval(() => {
      const player = suite.server.player('mortal');
      if (!player || player.position.x < KILL_AT_X) return;
      clearInterval(kill);
      suite.server.setHealth('mortal', 0);
    }, 50);
    const deaths: Death[] = [];
    try {
      const { result, events, bot } = await suite.run(
        'mortal',
        [{ stepId: 'walk', type: 'navigate', args: { target: { kind: 'near', x: 30, y: 5, z: 0, range: 1 } } }],
        {
          joined: (joined) => {
            joined.events.on('died', (death) => deaths.push(death));
          },
        },
      );
      const summary = JSON.stringify({ result, deaths });
      expect(deaths, summary).toEqual([{ healthBefore: 20, position: match.objectContaining({ y: 5 }) }]);
      expect(deaths[0]!.position.x, summary).toBeGreaterThanOrEqual(KILL_AT_X - 1);
      expect(result, summary).toMatchObject({
        ok: false,
        code: 'died',
        detail: match.stringMatching(/^the bot died during walk \(navigate\) at \d+,5,0, killed from health 20, /),
      });
      expect(
        result.steps.map((s) => s.outcome),
        summary,
      ).toEqual([match.objectContaining({ ok: false, code: 'died' })]);
      expect(events.filter((e) => e.type === 'incident').map((e) => e.type === 'incident' && e.kind)).toEqual([
        'death',
      ]);
      // mineflayer asks to respawn at once: the bot is back at the spawn with full health.
      expect(await eventually(() => bot.health() === 20), summary).toBe(true);
      expect(bot.position(), summary).toMatchObject({ x: 0.5, y: 5, z: 0.5 });
      await bot.close();
    } finally {
      clearInterval(kill);
    }
  }, 60_000);
});
