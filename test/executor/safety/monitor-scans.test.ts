import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock/index.js';
import type { EntityKind } from '../../../src/contracts/world.js';
import { ExecutorPolicy } from '../../../src/executor/policy.js';
import { SafetyMonitor } from '../../../src/executor/safety/index.js';
import { SimWorld } from '../../../src/world/sim/index.js';

/*
 * Issue 34, §2: the safety monitor checks every tick of every bot's step, and a bot in a crowd sees every other bot: each
 * look at the entities costs as many as it sees. A check looks once, for its reading of the hostiles and its detection
 * both, whatever the crowd and wherever its hostiles stand beyond reach; and it asks only for the kinds it judges, so
 * that a world need not build the crowd's players for it.
 */

const players = fc.array(fc.record({ x: fc.integer({ min: -30, max: 30 }), z: fc.integer({ min: -30, max: 30 }) }), {
  maxLength: 20,
});

const crowd = fc.record({
  players,
  // Hostiles beyond the monitor's radius and its reading's (16 blocks): no signal, and no mob's health to read.
  hostiles: fc.array(fc.record({ x: fc.integer({ min: 17, max: 30 }), z: fc.integer({ min: -30, max: 30 }) }), {
    maxLength: 5,
  }),
  ticks: fc.integer({ min: 1, max: 10 }),
});

describe('the safety monitor’s looks at the entities', () => {
  it('are one a check, in a crowd of players with hostiles out of reach', async () => {
    await fc.assert(
      fc.asyncProperty(crowd, async ({ players, hostiles, ticks }) => {
        const world = SimWorld.create({ clock: new ManualClock(), ground: { radius: 40 } });
        for (const { x, z } of players)
          world.spawnEntity({ name: 'player', kind: 'player', position: { x: x + 0.5, y: 0, z: z + 0.5 } });
        for (const { x, z } of hostiles)
          world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: x + 0.5, y: 0, z: z + 0.5 } });
        const entities = world.entities.bind(world);
        let looks = 0;
        world.entities = () => {
          looks++;
          return entities();
        };
        const monitor = new SafetyMonitor(ExecutorPolicy.parse({}).safety, world);
        for (let tick = 0; tick < ticks; tick++) {
          expect(monitor.check(tick * 50)).toBeNull();
          await Promise.resolve();
        }
        expect(looks).toBe(ticks);
      }),
      { numRuns: 40 },
    );
  });

  it('ask only for hostiles and animals, and judge as they did from the whole list', async () => {
    const scene = fc.record({
      players,
      // Anywhere from a step away to beyond the reading: fights, flights and hunts as well as quiet checks.
      mobs: fc.array(
        fc.record({
          name: fc.constantFrom('zombie', 'skeleton', 'cow', 'pig'),
          x: fc.integer({ min: -20, max: 20 }),
          z: fc.integer({ min: -20, max: 20 }),
        }),
        { maxLength: 6 },
      ),
      food: fc.integer({ min: 0, max: 20 }),
      ticks: fc.integer({ min: 1, max: 6 }),
    });
    await fc.assert(
      fc.asyncProperty(scene, async ({ players, mobs, food, ticks }) => {
        const asked: (readonly EntityKind[] | undefined)[] = [];
        const run = async (honoursKinds: boolean) => {
          const world = SimWorld.create({ clock: new ManualClock(), ground: { radius: 40 }, food });
          for (const { x, z } of players)
            world.spawnEntity({ name: 'player', kind: 'player', position: { x: x + 0.5, y: 0, z: z + 0.5 } });
          for (const { name, x, z } of mobs) {
            const kind = name === 'zombie' || name === 'skeleton' ? 'hostile' : 'passive';
            world.spawnEntity({ name, kind, position: { x: x + 0.5, y: 0, z: z + 0.5 } });
          }
          const entities = world.entities.bind(world);
          // A world of a user's that lists everything, whatever the kinds asked, against one that honours them.
          world.entities = (kinds) => {
            if (honoursKinds) asked.push(kinds);
            return entities(honoursKinds ? kinds : undefined);
          };
          const monitor = new SafetyMonitor(ExecutorPolicy.parse({}).safety, world);
          const signals = [];
          for (let tick = 0; tick < ticks; tick++) {
            signals.push(monitor.check(tick * 50));
            await monitor.refresh();
          }
          return signals;
        };
        const whole = await run(false);
        expect(await run(true)).toEqual(whole);
        expect(asked.length).toBeGreaterThan(0);
        for (const kinds of asked) {
          expect(kinds).toBeDefined();
          expect(kinds).not.toContain('player');
        }
      }),
      { numRuns: 60 },
    );
  });
});
