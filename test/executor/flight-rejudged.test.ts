import { describe, expect, it } from 'vitest';
import { harness, plan } from '../helpers/executor.js';
import { match } from '../helpers/matchers.js';

/*
 * Issue 30, server tech-tree world 1: a flight from two skeletons ran 38 blocks, ended with another skeleton within 15
 * of the bot (a hostile its way was not judged with), was retried as it had been judged, and a creeper met on the way
 * blew the bot up. A flight is judged on the hostiles seen when its way was chosen: one that comes at the bot on the
 * way breaks it off (capabilities/flee/run.test.ts), and one still about at its end is judged with the rest in the
 * fast path's next round, never walked at again under the old judgement.
 */

const walk = { stepId: 'walk', type: 'navigate', args: { target: { kind: 'near', x: -40, y: 0, z: 0, range: 1 } } };

describe('a safety flight whose end the world does not show', () => {
  it('is not retried as judged: it ends once, and the encounter is judged again with the zombie it ran to', async () => {
    const h = await harness({ ground: { radius: 70 } });
    // A zombie at hand to the west sends the bot east, 23 blocks; another comes out as the flight starts, 8 blocks
    // beside where it ends: beyond a walker's reach of the bot all the way, within the flight's 10 at its end.
    h.world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: -2.5, y: 0, z: 0.5 } });
    let far = -1;
    h.assembly.executor.events.on('event', (event) => {
      if (event.type === 'step.started' && event.verb === 'flee' && far < 0)
        far = h.world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: 23.5, y: 0, z: 8.5 } });
    });
    const result = await h.run(plan(walk), 600_000);
    const flights = result.steps.filter((s) => s.step.type === 'flee');
    expect(flights[0]!.outcome).toMatchObject({
      ok: false,
      code: 'effects_unmet',
      detail: match.stringMatching(/zombie/),
    });
    expect(flights[0]!.attempts).toBe(1);
    // The next round judged the zombie it ran to with the rest.
    expect((flights[1]!.step.args as { judgedOn: number[] }).judgedOn).toContain(far);
    expect(h.deaths).toEqual([]);
  });
});
