import { describe, expect, it } from 'vitest';
import { embeddedSuite } from '../../test/helpers/embedded.js';
import { match } from '../../test/helpers/matchers.js';

// Bots spawn at 0,5,0 on grass; a cow and a zombie stand nearby, a pig far off (flying-squid's mobs do not move on
// their own).
const suite = embeddedSuite({
  mobs: [
    { name: 'cow', x: 3, y: 5, z: 2 },
    { name: 'zombie', x: -3, y: 5, z: -3 },
    { name: 'pig', x: 40, y: 5, z: 0 },
  ],
});

describe('attack_entity on the embedded server', () => {
  it('kills the zombie it was sent for, following its knock-backs, without fleeing from it; the server no longer holds it', async () => {
    const { result, events, bot } = await suite.run('knight', [
      { stepId: 'fight', type: 'attack_entity', args: { target: { name: 'zombie' } } },
    ]);
    expect(result.ok, JSON.stringify(result.steps.map((s) => s.outcome))).toBe(true);
    expect(events.filter((e) => e.type === 'safety.emergency')).toEqual([]);
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
