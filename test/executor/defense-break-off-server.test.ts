import { describe, expect, it } from 'vitest';
import { HOSTILE_STATS } from '../../src/world/mob-rules/index.js';
import { embeddedSuite } from '../helpers/embedded.js';
import { watchLowestHealth } from '../helpers/health-watch.js';

// Midnight, no daylight cycle; the bot spawns at 0,5,0 at full health and bare-handed, in a pen of stone two blocks
// high (5 by 5 inside) with four zombies in its corners, their AI on (src/world/mob-rules/). Penned, a zombie the bot
// knocks back hits the wall and is soon back, and the bot cannot back away for long: they hit it, 3 a blow, each blow
// followed by the player's half second of hurt immunity. (In the open, the skill's knock-backs kept three zombies, and
// six, at bay for the step's whole 60 s in some runs.) The blows come in melee, between short moves: this passes on
// the code that read health between moves too; a long move cut short is defense-break-off-walk-server.test.ts.
const wall = (from: [number, number], to: [number, number]) => ({
  from: { x: from[0], y: 5, z: from[1] },
  to: { x: to[0], y: 6, z: to[1] },
  block: 'stone',
});
const suite = embeddedSuite({
  timeOfDay: 18_000,
  fills: [wall([-3, -3], [3, -3]), wall([-3, 3], [3, 3]), wall([-3, -2], [-3, 2]), wall([3, -2], [3, 2])],
  mobs: [
    { name: 'zombie', x: 2, y: 5, z: 2 },
    { name: 'zombie', x: -2, y: 5, z: 2 },
    { name: 'zombie', x: 2, y: 5, z: -2 },
    { name: 'zombie', x: -2, y: 5, z: -2 },
  ],
});

const BREAK_OFF = 16;
const ONE_BLOW = HOSTILE_STATS.zombie!.melee!.damage;

describe('a fight breaks off within a move, on the embedded server (issue 30)', () => {
  it('four zombies on a bare-handed bot in a pen with its break-off at 16: the fight fails preempted before the server holds its health more than one blow below 16', async () => {
    const health = watchLowestHealth(() => suite.server, 'breaker');
    let atEnd: { server: number; lowest: number } | null = null;
    try {
      const { result, bot, deaths } = await suite.run(
        'breaker',
        [{ stepId: 'fight', type: 'attack_entity', args: { target: { name: 'zombie' }, breakOffBelow: BREAK_OFF } }],
        {
          onEvent: (event) => {
            if (event.type === 'step.ended' && event.stepId === 'fight')
              atEnd = { server: suite.server.player('breaker')!.health, lowest: health.lowest() };
          },
        },
      );
      // Left among the zombies, the bot would be hit on after the test: it leaves.
      await bot.close();
      const outcome = result.steps[0]!.outcome;
      const summary = JSON.stringify({ outcome, atEnd, deaths });
      expect(deaths, summary).toEqual([]);
      expect(outcome, summary).toMatchObject({ ok: false, code: 'preempted' });
      const said = /health ([\d.]+) is below 16: the fight with the zombie breaks off to be judged again/.exec(
        (outcome as { detail: string }).detail,
      );
      expect(said, summary).not.toBeNull();
      expect(Number(said![1]), summary).toBeGreaterThanOrEqual(BREAK_OFF - ONE_BLOW);
      const { server, lowest } = atEnd!;
      expect(server, summary).toBeLessThan(BREAK_OFF);
      expect(server, summary).toBeGreaterThanOrEqual(BREAK_OFF - ONE_BLOW);
      expect(lowest, summary).toBeGreaterThanOrEqual(BREAK_OFF - ONE_BLOW);
    } finally {
      health.stop();
    }
  }, 90_000);
});
