import { describe, expect, it } from 'vitest';
import { FAILURE_CODE_LIST } from '../../src/contracts/failure-codes.js';
import type { EventOf } from '../../src/executor/events.js';
import { embeddedSuite } from '../helpers/embedded.js';
import { watchLowestHealth } from '../helpers/health-watch.js';

// Midnight, no daylight cycle; the bot spawns at 0,5,0 at half health, bare-handed, with 16 dirt, and eight zombies
// with their AI on stand around it 6 to 10 blocks off: too many to fight with fists.
const ring = Array.from({ length: 8 }, (_, i) => {
  const angle = (i * Math.PI) / 4;
  const r = 6 + (i % 3) * 2;
  return { name: 'zombie', x: Math.round(r * Math.cos(angle)), y: 5, z: Math.round(r * Math.sin(angle)) };
});
const suite = embeddedSuite({ timeOfDay: 18_000, bot: { inventory: { dirt: 16 }, health: 10 }, mobs: ring });

describe('eight zombies, bare hands, half health, on the embedded server', () => {
  it('the bot shelters up a pillar and lives; its step goes on after or fails explicitly, never dead', async () => {
    const health = watchLowestHealth(() => suite.server, 'cornered');
    try {
      const { result, events, deaths } = await suite.run('cornered', [
        { stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', x: 0, y: 5, z: -20 } } },
      ]);
      const emergencies = events.filter((e): e is EventOf<'safety.emergency'> => e.type === 'safety.emergency');
      const summary = JSON.stringify({
        lowest: health.lowest(),
        deaths,
        result: [result.ok, result.code, result.detail],
        emergencies: emergencies.map((e) => [e.response, e.detail]),
      });
      expect(emergencies[0], summary).toMatchObject({ signal: 'hostile', response: 'pillar_up' });
      expect(emergencies[0]!.detail, summary).toMatch(
        /^shelter 3 blocks up: \d zombies; a fight \(bare hands 1 per hit\) is expected to take [\d.]+ of \d+ health, below the floor of 6$/,
      );
      expect(
        events.some((e) => e.type === 'step.ended' && e.verb === 'pillar_up' && e.outcome.ok),
        summary,
      ).toBe(true);
      expect(result.ok || (result.code !== undefined && FAILURE_CODE_LIST.includes(result.code)), summary).toBe(true);
      expect(deaths, summary).toEqual([]);
    } finally {
      health.stop();
    }
  }, 240_000);
});
