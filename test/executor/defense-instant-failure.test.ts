import { describe, expect, it } from 'vitest';
import type { EventOf } from '../../src/executor/events.js';
import { harness, plan } from './../helpers/executor.js';

// SimWorld at midnight: the bot and a zombie shut in a stone corridor two cells long (walls 3 high, a stone floor
// too hard to dig by hand), the plan avoiding fights. The only answer is a flight, and it has no path: it fails at
// once, without the clock moving. In a night's tech-tree run the same flight was chosen 7 times at one instant.
describe('a defence that failed at once is not run again at the same instant', () => {
  it('the flight with no path runs once; the step then ends explicitly, naming the failure', async () => {
    const h = await harness({ ground: { radius: 20 }, timeOfDay: 18_000 });
    h.world.fill({ x: -1, y: -3, z: -1 }, { x: 2, y: -1, z: 1 }, 'stone');
    for (const [x, z] of [
      [-1, 0],
      [2, 0],
      [0, -1],
      [1, -1],
      [0, 1],
      [1, 1],
    ] as const)
      h.world.fill({ x, y: 0, z }, { x, y: 2, z }, 'stone');
    h.world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: 1.5, y: 0, z: 0.5 } });
    const result = await h.run({
      ...plan({ stepId: 'walk', type: 'navigate', args: { target: { kind: 'near', x: 0, y: 0, z: 20, range: 1 } } }),
      safety: { combat: 'avoid' },
    });
    const emergencies = h.events.filter((e): e is EventOf<'safety.emergency'> => e.type === 'safety.emergency');
    const flights = h.events.filter((e) => e.type === 'step.ended' && e.verb === 'flee');
    const summary = JSON.stringify({ result, emergencies: emergencies.map((e) => [e.response, e.detail]) });
    expect(emergencies[0], summary).toMatchObject({ signal: 'hostile', response: 'flee' });
    expect(flights, summary).toHaveLength(1);
    expect(result.ok, summary).toBe(false);
    expect(JSON.stringify(result), summary).toContain('every defence left failed at once (flee ');
  });
});
