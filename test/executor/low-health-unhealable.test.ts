import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import { ExecutorPolicy } from '../../src/executor/policy.js';
import { SafetyMonitor } from '../../src/executor/safety/index.js';
import { REGEN_MIN_FOOD } from '../../src/world/health-rules.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { harness, plan } from '../helpers/executor.js';

/*
 * Issue 30, server tech-tree world 7: a bot at 4 health with food below 18 (it heals only by eating then) and nothing
 * to eat dug in "for low health", waited, came out, and dug in again 5 s later, by day with no hostile about, until
 * its plan's escalations ran out. A shelter heals a bot only as the game heals it: by itself at 18 food or more, or
 * after a meal. Without either, low health is no signal; the hostiles about are still judged from that health.
 */

const walk = { stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', x: 30, y: 0, z: 0 } } };

describe('low health that no shelter heals (issue 30, tech-tree world 7)', () => {
  it('by day, at 4 health, too hungry to heal and with nothing to eat: the bot walks on, verified, with no shelter', async () => {
    const h = await harness({ ground: { radius: 40 }, health: 4, food: 10, timeOfDay: 6_000 });
    const result = await h.run(plan(walk), 600_000);
    expect(result.steps.map((s) => [s.step.stepId, s.outcome.ok])).toEqual([['walk', true]]);
    // Nothing is run for it; the events say what is missing (no animal to hunt: test/executor/hunt.test.ts).
    const said = h.events.flatMap((e) => (e.type === 'safety.emergency' ? [[e.signal, e.response, e.detail]] : []));
    expect(new Set(said.map((e) => JSON.stringify(e)))).toEqual(
      new Set([
        JSON.stringify([
          'hunger',
          'none available',
          'health 4 of 20, too hungry to heal (food 10 of 20), nothing to eat, no animal within 24 blocks to hunt',
        ]),
      ]),
    );
    expect(h.world.position()).toMatchObject({ x: 30.5, z: 0.5 });
  });

  it('with a loaf to eat, it eats it first, then walks on: one meal, no shelter that would not heal it', async () => {
    const h = await harness({ ground: { radius: 40 }, health: 4, food: 10, inventory: { bread: 1 }, timeOfDay: 6_000 });
    const result = await h.run(plan(walk), 600_000);
    expect(result.ok).toBe(true);
    expect(result.steps.map((s) => s.step.type)).toEqual(['consume_food', 'navigate']);
    expect(h.world.inventory().bread ?? 0).toBe(0);
    expect(h.world.food()).toBe(15);
  });

  it('fed enough to heal by itself, it still digs in for its health (it heals there)', async () => {
    // SimWorld heals as the game does: at 18 food and 5 saturation, 4 points before the food falls to 17.
    const h = await harness({ ground: { radius: 40 }, health: 4, food: REGEN_MIN_FOOD, timeOfDay: 6_000 });
    const result = await h.run(plan(walk), 600_000);
    expect(result.ok).toBe(true);
    expect(result.steps.map((s) => s.step.type)).toEqual(['dig_in', 'leave_shelter', 'navigate']);
    expect([h.world.health(), h.world.food()]).toEqual([8, 17]);
  });

  it('over generated health, food and packs: low health is a signal exactly when a meal or the wait would heal', () => {
    const policy = ExecutorPolicy.parse({}).safety;
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 0, max: 20 }),
        fc.subarray(['bread', 'cooked_beef', 'apple', 'dirt', 'wooden_sword']),
        (health, food, items) => {
          const world = SimWorld.create({
            clock: new ManualClock(),
            ground: { radius: 8 },
            health,
            food,
            inventory: Object.fromEntries(items.map((item) => [item, 1])),
          });
          const signal = new SafetyMonitor(policy, world).check(0);
          const edible = items.some((item) => ['bread', 'cooked_beef', 'apple'].includes(item));
          const heals = food >= REGEN_MIN_FOOD || edible;
          const low = health < policy.minHealth;
          expect(signal?.signal === 'low_health').toBe(low && heals);
          // Too hungry to heal and nothing to eat: a hunt is looked for (none here), said as hunger.
          if (low && !heals) expect(signal).toMatchObject({ signal: 'hunger', responses: [] });
          // Too hungry to heal, it is still told to eat when the hunger itself is the signal.
          if (!(low && heals) && food < policy.minFood && edible) expect(signal?.signal).toBe('hunger');
        },
      ),
      { numRuns: 300 },
    );
  });
});
