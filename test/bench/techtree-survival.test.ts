import { describe, expect, it } from 'vitest';
import { DUSK, MAX_NEARBY, NIGHT_KINDS, SPAWN_RADIUS, techtreeScenario } from '../../bench/techtree-survival.js';
import { ManualClock } from '../../src/clock/index.js';
import { isNight } from '../../src/contracts/world.js';
import { simWorldFromScenario } from '../../src/world/sim-scenario.js';

/*
 * Issue 30 §5: the tech tree "with nights and mobs on". `--survival`'s world must really turn to night and spawn
 * hostiles, or the bench would run by day and count no deaths for nothing. In SimWorld, on game time: the same
 * scenario fields (timeOfDay, daylightCycle, spawnAtNight) drive the embedded server's clock and spawning.
 */

const hostileIds = (world: ReturnType<typeof simWorldFromScenario>) =>
  new Set(
    world
      .entities()
      .filter((e) => e.kind === 'hostile')
      .map((e) => e.id),
  );

describe('the tech-tree bench’s --survival world', () => {
  it('starts at dusk with the cycle running, turns to night within a minute and spawns hostiles up to its cap', async () => {
    const clock = new ManualClock();
    const world = simWorldFromScenario(techtreeScenario(3, true), { clock, seed: 3 });
    const before = hostileIds(world);
    expect(world.timeOfDay()).toBe(DUSK);
    expect(isNight(world.timeOfDay())).toBe(false);

    await clock.advance(60_000);
    expect(isNight(world.timeOfDay())).toBe(true);
    const spawned = world.entities().filter((e) => e.kind === 'hostile' && !before.has(e.id));
    expect(spawned.length).toBeGreaterThan(0);
    for (const mob of spawned) expect(NIGHT_KINDS).toContain(mob.name);
    const at = world.position();
    const near = world
      .entities()
      .filter((e) => e.kind === 'hostile' && Math.hypot(e.position.x - at.x, e.position.z - at.z) <= SPAWN_RADIUS);
    expect(near.length).toBeLessThanOrEqual(MAX_NEARBY);
  });

  it('without --survival stays in the morning with no hostile spawned', async () => {
    const clock = new ManualClock();
    const world = simWorldFromScenario(techtreeScenario(3, false), { clock, seed: 3 });
    const before = hostileIds(world);
    await clock.advance(60_000);
    expect(world.timeOfDay()).toBe(1000);
    expect([...hostileIds(world)].filter((id) => !before.has(id))).toEqual([]);
  });
});
