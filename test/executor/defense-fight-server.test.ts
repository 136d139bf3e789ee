import { describe, expect, it } from 'vitest';
import type { EventOf } from '../../src/executor/events.js';
import { embeddedSuite } from '../helpers/embedded.js';
import { watchLowestHealth } from '../helpers/health-watch.js';

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
      const { result, events, bot } = await suite.run('swordsman', [
        { stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', x: 14, y: 5, z: 0 } } },
      ]);
      const emergencies = events.filter((e): e is EventOf<'safety.emergency'> => e.type === 'safety.emergency');
      const summary = JSON.stringify({
        lowest: health.lowest(),
        steps: result.steps.map((s) => [s.step.stepId, s.outcome]),
        emergencies: emergencies.map((e) => [e.response, e.detail]),
      });
      expect(emergencies[0], summary).toMatchObject({ signal: 'hostile', response: 'attack_entity' });
      expect(emergencies[0]!.detail, summary).toMatch(
        /^fight: a zombie, stone_sword 5 per hit, expected [\d.]+ damage taken of \d+$/,
      );
      expect(
        emergencies.every((e) => e.response === 'attack_entity'),
        summary,
      ).toBe(true);
      const left = await bot.observe({ entities: { names: ['zombie'], within: 64 } });
      expect(left.entities, summary).toEqual([]);
      expect(health.lowest(), summary).toBeGreaterThan(0);
      expect(result.ok, summary).toBe(true);
    } finally {
      health.stop();
    }
  }, 180_000);
});
