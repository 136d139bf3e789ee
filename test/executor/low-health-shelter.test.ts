import { describe, expect, it } from 'vitest';
import { harness, plan } from '../helpers/executor.js';

const walk = { stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', x: 6, y: 0, z: 0 } } };

describe('low health with no food and no blocks for a pillar: the bot digs in until it heals', () => {
  it('digs in, waits in the hole until its health is back over the floor, comes out and walks on: verified', async () => {
    // A zombie off beyond the monitor's reach and the encounter's (a night's zombie within 16 blocks keeps a sheltered
    // bot in): no hostile signal, the low health is the signal.
    const h = await harness({ health: 4, inventory: { wooden_shovel: 1 }, timeOfDay: 18_000 });
    h.world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: -20.5, y: 0, z: 0.5 } });
    let dugAt = 0;
    h.assembly.executor.events.on('event', (event) => {
      if (event.type !== 'step.ended' || event.stepId !== 'walk/safety-dig_in') return;
      dugAt = event.at;
      // SimWorld does not heal; the game heals a fed player a point every 4 s.
      h.clock.setTimeout(() => h.world.setHealth(8), 8_000);
    });
    const result = await h.run(plan(walk));
    expect(result.steps.map((s) => [s.step.stepId, s.outcome.ok])).toEqual([
      ['walk/safety-dig_in', true],
      ['walk/safety-leave_shelter', true],
      ['walk', true],
    ]);
    const left = h.events.find((e) => e.type === 'step.started' && e.stepId === 'walk/safety-leave_shelter');
    expect(left!.at - dugAt).toBeGreaterThanOrEqual(8_000);
    expect(h.events).toContainEqual(
      expect.objectContaining({ type: 'safety.emergency', signal: 'low_health', response: 'dig_in' }),
    );
    expect(h.world.position()).toMatchObject({ x: 6.5, y: 0, z: 0.5 });
  });
});
