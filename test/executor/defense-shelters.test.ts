import { describe, expect, it } from 'vitest';
import { FAILURE_CODE_LIST } from '../../src/contracts/failure-codes.js';
import type { EventOf } from '../../src/executor/events.js';
import { harness, plan } from './../helpers/executor.js';

// SimWorld at midnight, mobs by the rules: the bot at half health, bare-handed but for a wooden shovel, with a few
// blocks, walks off while zombies and a skeleton close in. A pillar or a wall would leave it in the skeleton's
// sight: it digs in, the zombies 8 blocks off (a hole with a shovel, its drops and its cover take 2.45 s; a zombie
// closer than 7 is at the hole before its top is closed, and walks into it).
describe('a shelter chosen by what threatens, on SimWorld', () => {
  it('from three zombies and a skeleton the bot digs in, lives, and its step goes on or fails explicitly', async () => {
    const h = await harness({
      ground: { radius: 40 },
      timeOfDay: 18_000,
      health: 10,
      inventory: { wooden_shovel: 1, dirt: 16 },
    });
    for (const [name, x, z] of [
      ['zombie', 8, 0],
      ['zombie', -8, 2],
      ['zombie', 0, 9],
      ['skeleton', 10, 10],
    ] as const)
      h.world.spawnEntity({ name, kind: 'hostile', position: { x: x + 0.5, y: 0, z: z + 0.5 }, ai: true });
    const result = await h.run(
      plan({ stepId: 'walk', type: 'navigate', args: { target: { kind: 'near', x: 0, y: 0, z: -30, range: 1 } } }),
    );
    const emergencies = h.events.filter((e): e is EventOf<'safety.emergency'> => e.type === 'safety.emergency');
    const summary = JSON.stringify({
      result: [result.ok, result.code, result.detail],
      emergencies: emergencies.map((e) => [e.response, e.detail]),
      health: h.world.health(),
    });
    expect(emergencies[0], summary).toMatchObject({ signal: 'hostile', response: 'dig_in' });
    expect(emergencies[0]!.detail, summary).toMatch(
      /^shelter dug in under a closed top: .*a skeleton shoots up a pillar/,
    );
    expect(
      h.events.some((e) => e.type === 'step.ended' && e.verb === 'dig_in' && e.outcome.ok),
      summary,
    ).toBe(true);
    expect(result.ok || (result.code !== undefined && FAILURE_CODE_LIST.includes(result.code)), summary).toBe(true);
    expect(h.world.health(), summary).toBeGreaterThan(0);
  });
});
