import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import { REGEN_INTERVAL_TICKS, type Vitals, regenerationTick } from '../../src/world/health-rules.js';
import { TICK_MS } from '../../src/world/mob-rules/index.js';
import { SimWorld } from '../../src/world/sim/index.js';

const INTERVAL_MS = REGEN_INTERVAL_TICKS * TICK_MS;

function vitalsOf(world: SimWorld): Omit<Vitals, 'exhaustion'> {
  return { health: world.health(), food: world.food(), saturation: world.saturation() };
}

describe('SimWorld natural regeneration (the rules the embedded server heals by)', () => {
  it('at 10 health, 20 food and 5 saturation it heals a point every 4 s until the food falls below 18', async () => {
    const clock = new ManualClock();
    const world = SimWorld.create({ clock, health: 10, food: 20, saturation: 5 });
    await clock.advance(INTERVAL_MS - 1);
    expect(vitalsOf(world)).toEqual({ health: 10, food: 20, saturation: 5 });
    await clock.advance(1);
    expect(vitalsOf(world)).toEqual({ health: 11, food: 20, saturation: 4 });
    await clock.advance(5 * INTERVAL_MS);
    expect(vitalsOf(world)).toEqual({ health: 16, food: 16, saturation: 0 });
    // At 16 food it no longer heals, and no timer is left running for it.
    await clock.advance(10 * INTERVAL_MS);
    expect(vitalsOf(world)).toEqual({ health: 16, food: 16, saturation: 0 });
    expect(clock.pendingTimers()).toBe(0);
  });

  it('over generated starts and waits: after N intervals the health, food and saturation are the rule applied N times', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 0, max: 12 }),
        async (health, food, saturation, intervals) => {
          const clock = new ManualClock();
          const world = SimWorld.create({ clock, health, food, saturation });
          let expected: Vitals = { ...vitalsOf(world), exhaustion: 0 };
          for (let i = 0; i < intervals; i++) expected = regenerationTick(expected);
          await clock.advance(intervals * INTERVAL_MS);
          const { exhaustion: _carried, ...shown } = expected;
          expect(vitalsOf(world)).toEqual(shown);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a bot hurt later heals on the world clock’s next 4 s mark, as the server heals on its ticks’ multiples of 80', async () => {
    const clock = new ManualClock();
    const world = SimWorld.create({ clock });
    await clock.advance(5_000);
    world.setHealth(12);
    await clock.advance(2_999);
    expect(world.health()).toBe(12);
    await clock.advance(1);
    expect(world.health()).toBe(13);
  });

  it('saturation: vanilla 5 at spawn, never above the food; a meal adds its own; a respawn restores 5', async () => {
    const clock = new ManualClock();
    const world = SimWorld.create({ clock, food: 3, inventory: { bread: 1 } });
    expect(world.saturation()).toBe(3);
    const eaten = world.consume('bread');
    await clock.advance(2_000);
    await eaten;
    expect([world.food(), world.saturation()]).toEqual([8, 8]);
    world.setFood(20, 0).setHealth(0);
    await clock.advance(TICK_MS);
    expect(vitalsOf(world)).toEqual({ health: 20, food: 20, saturation: 5 });
  });

  it('a jump exhausts the body as the server counts it (0.05): 60 jumps cost nothing yet, 100 a point of saturation', async () => {
    const clock = new ManualClock();
    const world = SimWorld.create({ clock, saturation: 5 });
    for (let jump = 1; jump <= 100; jump++) {
      const jumped = world.move('jump', 600);
      await clock.advance(1_000);
      await jumped;
      if (jump === 60) expect(world.saturation()).toBe(5);
    }
    expect(world.saturation()).toBe(4);
  });
});
