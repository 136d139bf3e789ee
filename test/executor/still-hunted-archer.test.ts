import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import { ExecutorPolicy } from '../../src/executor/policy.js';
import { SafetyMonitor } from '../../src/executor/safety/index.js';
import type { RunScope } from '../../src/executor/scope.js';
import { stillHunted } from '../../src/executor/shelter-night.js';
import { SimWorld } from '../../src/world/sim/index.js';

/*
 * After a flight at night, what still hunts the bot is met with a shelter before the step walks on. A skeleton within
 * its bow's range but out of sight where the flight ended is one of them: the night tech-tree bench's server world 7
 * (c879818), where a bot at 7 health resumed its step, walked back into such a skeleton's sight, took an arrow to 3 and
 * died to it on its next flight.
 */

const MIDNIGHT = 18_000;
const NOON = 6_000;
/** A wall four blocks high and nine wide, 5 blocks north of the bot: no line of sight across it. */
const WALL_Z = -5;

function world(options: { health: number; held: string; timeOfDay?: number; wall?: boolean }) {
  const sim = SimWorld.create({
    clock: new ManualClock(),
    ground: { radius: 30 },
    timeOfDay: options.timeOfDay ?? MIDNIGHT,
    health: options.health,
    heldItem: options.held,
    inventory: { [options.held]: 1, wooden_shovel: 1, dirt: 2 },
  });
  if (options.wall ?? true) sim.fill({ x: -4, y: 0, z: WALL_Z }, { x: 4, y: 3, z: WALL_Z }, 'stone');
  return sim;
}

function scopeOf(sim: SimWorld): RunScope {
  const policy = ExecutorPolicy.parse({});
  // stillHunted reads the world, the safety policy and the monitor's combat settings, nothing else of a run.
  return { world: sim, policy, safety: new SafetyMonitor(policy.safety, sim) } as unknown as RunScope;
}

const skeletonAt = (sim: SimWorld, x: number, z: number) =>
  sim.spawnEntity({ name: 'skeleton', kind: 'hostile', position: { x: x + 0.5, y: 0, z: z + 0.5 } });

describe('still hunted at night by an archer the bot cannot see', () => {
  it('at 7 health with a wooden sword, a skeleton 10 blocks off behind a wall: a shelter, not a walk back out', async () => {
    const sim = world({ health: 7, held: 'wooden_sword' });
    skeletonAt(sim, 0, -10);
    const signal = await stillHunted(scopeOf(sim), {});
    expect(signal?.responses[0]).toMatchObject({ verb: 'dig_in' });
    expect(signal?.detail).toMatch(/^fled, and a skeleton still comes on at night \(10(\.\d)? blocks off\)$/);
  });

  it('nothing holds the step back from a skeleton beyond its bow range, nor by day', async () => {
    const far = world({ health: 7, held: 'wooden_sword' });
    skeletonAt(far, 0, -17);
    expect(await stillHunted(scopeOf(far), {})).toBeNull();
    const day = world({ health: 7, held: 'wooden_sword', timeOfDay: NOON });
    skeletonAt(day, 0, -10);
    expect(await stillHunted(scopeOf(day), {})).toBeNull();
  });

  it('over generated healths, weapons and spots behind the wall: a skeleton out of sight is judged as the same one in sight', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 20 }),
        fc.constantFrom('wooden_sword', 'stone_sword', 'iron_sword'),
        fc.integer({ min: -3, max: 3 }),
        fc.integer({ min: -14, max: -7 }),
        async (health, held, x, z) => {
          const answer = async (wall: boolean) => {
            const sim = world({ health, held, wall });
            skeletonAt(sim, x, z);
            const signal = await stillHunted(scopeOf(sim), {});
            return signal?.responses.map((r) => r.verb) ?? null;
          };
          expect(await answer(true)).toEqual(await answer(false));
        },
      ),
      { numRuns: 40 },
    );
  });
});
