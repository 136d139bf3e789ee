import { describe, expect, it } from 'vitest';
import { FAILURE_CODE_LIST } from '../../src/contracts/failure-codes.js';
import { embeddedSuite } from '../helpers/embedded.js';
import { watchLowestHealth } from '../helpers/health-watch.js';

const trunk = (x: number, z: number) => [5, 6, 7, 8].map((y) => ({ x, y, z, block: 'oak_log' }));

// Night has just fallen and goes on (the daylight cycle runs), and the scenario asks for the game's night spawning:
// zombies and skeletons appear 24 to 27 blocks off, up to six at a time, and come for the bot
// (src/world/mob-rules/). Two trees stand near the spawn; the bot carries an iron sword, bread and dirt.
const suite = embeddedSuite({
  timeOfDay: 13_000,
  daylightCycle: true,
  spawnAtNight: { kinds: ['zombie', 'skeleton'], maxNearby: 6, radius: 27 },
  blocks: [...trunk(5, 3), ...trunk(-4, -4)],
  bot: { inventory: { iron_sword: 1, bread: 6, dirt: 32 } },
});

describe('a hostile swarm at nightfall, on the embedded server', () => {
  it('a plan that gathers wood and crafts ends verified or fails explicitly with a code, and the bot lives through it', async () => {
    // The server's truth of the bot's health, read every tick through the run, for the summary: how close it came.
    const health = watchLowestHealth(() => suite.server, 'woodcutter');
    try {
      const { result, events, deaths } = await suite.run('woodcutter', [
        { stepId: 'logs', type: 'collect_block', args: { block: 'oak_log', count: 8, radius: 16 } },
        { stepId: 'planks', type: 'craft_item', args: { item: 'oak_planks', count: 8 } },
      ]);
      const summary = JSON.stringify({
        ok: result.ok,
        code: result.code,
        detail: result.detail,
        lowest: health.lowest(),
        deaths,
        steps: result.steps.map((s) => [s.step.type, s.outcome.ok ? 'ok' : s.outcome.code]),
        emergencies: events.filter((e) => e.type === 'safety.emergency'),
      });
      expect(result.ok || (result.code !== undefined && FAILURE_CODE_LIST.includes(result.code)), summary).toBe(true);
      // The mobs came (the safety monitor saw them: they arrive in about 10 s, eight logs take a hand 24 s to fell), and
      // the bot never died (a failure code `died` would pass the first check).
      expect(
        events.some((e) => e.type === 'safety.emergency'),
        summary,
      ).toBe(true);
      expect(deaths, summary).toEqual([]);
    } finally {
      health.stop();
    }
  }, 240_000);
});
