import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import { SimWorld } from '../../src/world/sim/index.js';

describe('SimWorld breath (the drowning rules the embedded server applies)', () => {
  it('under water the air runs out in 15 s, then 2 health every second; out of it the air refills', async () => {
    const clock = new ManualClock();
    // Too hungry to heal (below 18 food), so the health shows the drowning alone.
    const world = SimWorld.create({ clock, food: 17 });
    world
      .setBlock({ x: 1, y: -1, z: 0 }, 'stone')
      .setBlock({ x: 1, y: 0, z: 0 }, 'water')
      .setBlock({ x: 1, y: 1, z: 0 }, 'water')
      .setBlock({ x: 1, y: 2, z: 0 }, 'stone')
      .teleport({ x: 1, y: 0, z: 0 });
    await clock.advance(15_000);
    expect(world.air()).toBe(0);
    expect(world.health()).toBe(20);
    await clock.advance(1_000);
    expect(world.health()).toBe(18);
    await clock.advance(2_000);
    expect(world.health()).toBe(14);
    world.teleport({ x: 0, y: 0, z: 0 });
    await clock.advance(3_750);
    expect(world.air()).toBe(300);
    expect(world.health()).toBe(14);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('eyes above the water (feet in it, head in air) breathe: no air is lost', async () => {
    const clock = new ManualClock();
    const world = SimWorld.create({ clock });
    world
      .setBlock({ x: 1, y: -1, z: 0 }, 'stone')
      .setBlock({ x: 1, y: 0, z: 0 }, 'water')
      .teleport({ x: 1, y: 0, z: 0 });
    await clock.advance(20_000);
    expect(world.air()).toBe(300);
    expect(clock.pendingTimers()).toBe(0);
  });
});
