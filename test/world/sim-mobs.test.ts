import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import { parseScenario, type ScenarioInput } from '../../src/world/scenario/index.js';
import { simWorldFromScenario } from '../../src/world/sim-scenario.js';
import { SimWorld, settle } from '../../src/world/sim/index.js';

const night = (extra: Omit<ScenarioInput, 'name'>) =>
  parseScenario({ name: 'sim-mobs', timeOfDay: 18_000, ...extra }, 'inline');

/** Where every mob stands after `ms` of virtual time, sampled each second. */
async function trajectory(world: SimWorld, clock: ManualClock, ms: number): Promise<string[]> {
  const seen: string[] = [];
  for (let t = 0; t < ms; t += 1000) {
    await clock.advance(1000);
    seen.push(
      world
        .entities()
        .map((e) => `${e.name}@${e.position.x.toFixed(3)},${e.position.z.toFixed(3)}`)
        .join(' '),
    );
  }
  return seen;
}

describe("SimWorld's mobs", () => {
  it('are deterministic: one seed, one story (a zombie chasing, a cow strolling); another seed, another', async () => {
    const scenario = night({
      mobs: [
        { name: 'zombie', x: 12, y: 5, z: 3 },
        { name: 'cow', x: -6, y: 5, z: -6 },
      ],
    });
    const story = async (seed: number) => {
      const clock = new ManualClock();
      const world = simWorldFromScenario(scenario, { clock, seed });
      return [...(await trajectory(world, clock, 30_000)), `health ${world.health()}`];
    };
    const first = await story(1);
    expect(await story(1)).toEqual(first);
    expect(await story(2)).not.toEqual(first);
    expect(first.at(-1)).not.toBe('health 20');
  });

  it('a mob with ai: false stands where it is put and never hits', async () => {
    const clock = new ManualClock();
    const world = simWorldFromScenario(night({ mobs: [{ name: 'zombie', x: 2, y: 5, z: 0, ai: false }] }), { clock });
    const seen = await trajectory(world, clock, 10_000);
    expect(new Set(seen).size).toBe(1);
    expect(world.health()).toBe(20);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('a SimWorld built in code keeps its mobs still unless they ask for ai; a closed world leaves no timer', async () => {
    const clock = new ManualClock();
    const world = SimWorld.create({
      clock,
      ground: { top: 4 },
      timeOfDay: 18_000,
      entities: [{ name: 'zombie', kind: 'hostile', position: { x: 3.5, y: 5, z: 0.5 } }],
      spawn: { x: 0, y: 5, z: 0 },
    });
    await clock.advance(5000);
    expect(world.health()).toBe(20);
    expect(clock.pendingTimers()).toBe(0);
    world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: -3.5, y: 5, z: 0.5 }, ai: true });
    await clock.advance(5000);
    expect(world.health()).toBeLessThan(20);
    await world.close();
    expect(clock.pendingTimers()).toBe(0);
  });

  it('a hit turns a zombie out of sight on the bot: it comes round the wall that hid the bot', async () => {
    const clock = new ManualClock();
    // The zombie stands behind a wall, in reach of the bot's arm over it, with a way round.
    const scenario = night({
      fills: [{ from: { x: 1, y: 5, z: -3 }, to: { x: 1, y: 7, z: 3 }, block: 'stone' }],
      bot: { inventory: {} },
      mobs: [{ name: 'zombie', x: 2, y: 5, z: 0 }],
    });
    const world = simWorldFromScenario(scenario, { clock });
    await clock.advance(3000);
    expect(world.health()).toBe(20);
    const zombie = world.entities().find((e) => e.name === 'zombie')!;
    const hit = await settle(clock, world.attack(zombie.id));
    expect(hit.state).toBe('ok');
    // Counted as blows, not read from the health at the end: ten seconds of them kill the bot, which respawns at 20.
    let blows = 0;
    world.events.on('hurt', () => blows++);
    await clock.advance(10_000);
    expect(blows).toBeGreaterThan(0);
  });
});
