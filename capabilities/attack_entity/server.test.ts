import { describe, expect, it } from 'vitest';
import { embeddedSuite } from '../../test/helpers/embedded.js';
import { match } from '../../test/helpers/matchers.js';

// Bots spawn at 0,5,0 on grass, at night, holding an iron sword (6 a hit); a cow and a zombie stand nearby, a pig far
// off. The zombie fights back (src/world/mob-rules/): it walks up to the bot and hits it for 3 once a second.
const suite = embeddedSuite({
  timeOfDay: 18_000,
  bot: { inventory: { iron_sword: 1 } },
  mobs: [
    { name: 'cow', x: 3, y: 5, z: 2 },
    { name: 'zombie', x: -3, y: 5, z: -3 },
    { name: 'pig', x: 40, y: 5, z: 0 },
  ],
});

describe('attack_entity on the embedded server', () => {
  it('kills the zombie it was sent for as it fights back, without fleeing from it; the server no longer holds it, and the bot lives', async () => {
    const { result, events, bot, deaths } = await suite.run('knight', [
      { stepId: 'fight', type: 'attack_entity', args: { target: { name: 'zombie' } } },
    ]);
    expect(result.ok, JSON.stringify(result.steps.map((s) => s.outcome))).toBe(true);
    expect(events.filter((e) => e.type === 'safety.emergency')).toEqual([]);
    // It fought back (the bot is hurt), and the bot won without dying.
    expect(deaths, JSON.stringify(deaths)).toEqual([]);
    expect(suite.server.player('knight')!.health).toBeLessThan(20);
    const left = await bot.observe({ entities: { names: ['zombie', 'cow'], within: 64 } });
    expect(left.entities!.map((e) => e.name)).toEqual(['cow']);
  }, 90_000);

  it('fails with the reason, nothing hit, when the kind is not in sight', async () => {
    const { result } = await suite.run('idle', [
      { stepId: 'hunt', type: 'attack_entity', args: { target: { name: 'pig' } } },
    ]);
    expect(result.steps[0]!.outcome).toMatchObject({
      ok: false,
      code: 'precondition_missing',
      detail: match.stringContaining('no pig alive within 16 blocks'),
    });
  }, 30_000);
});
