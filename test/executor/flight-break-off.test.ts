import { describe, expect, it } from 'vitest';
import { harness, plan } from '../helpers/executor.js';
import { match } from '../helpers/matchers.js';

/*
 * Issue 30, server tech-tree world 10: a flight from a skeleton judged to cost 3.6 from arrows ran on for 16 s under
 * them and the bot died in it, from 20 health. The flight now breaks off at the blow that takes it past its estimate
 * and an arrow more, and the encounter is judged again from there (with the health it has left).
 */

const walk = { stepId: 'walk', type: 'navigate', args: { target: { kind: 'near', x: 40, y: 0, z: 0, range: 1 } } };

describe('a flight under arrows that costs more than judged (issue 30)', () => {
  it('breaks off at the blow past its point, is judged again, and the bot is alive at the end', async () => {
    // Stone underfoot (no hole dug by hand), nothing in the pack, fights avoided: a skeleton in sight is fled.
    const h = await harness(
      { ground: { radius: 60, surface: 'stone', filler: 'stone' }, timeOfDay: 18_000 },
      { policy: { safety: { combat: 'avoid' } } },
    );
    h.world.spawnEntity({ name: 'skeleton', kind: 'hostile', position: { x: 9.5, y: 0, z: 0.5 }, ai: true });
    let flights = 0;
    h.assembly.executor.events.on('event', (event) => {
      // The arrows of a chase the estimate did not see: 12 health gone a second into the first flight.
      if (event.type === 'step.started' && event.verb === 'flee' && flights++ === 0)
        h.clock.setTimeout(() => h.world.setHealth(8, 'skeleton'), 1_000);
    });
    const result = await h.run(plan(walk), 600_000);
    const flight = result.steps.find((s) => s.step.type === 'flee');
    expect(flight?.outcome).toMatchObject({
      ok: false,
      code: 'preempted',
      detail: match.stringMatching(/health 8 is below [\d.]+: the flight from the skeleton breaks off/),
    });
    const brokeAt = h.events.findIndex((e) => e.type === 'step.ended' && e.stepId === flight!.step.stepId);
    // Judged again after it, from where the bot stands with what it has left.
    expect(h.events.slice(brokeAt).some((e) => e.type === 'safety.emergency')).toBe(true);
    expect(h.deaths).toEqual([]);
  });
});
