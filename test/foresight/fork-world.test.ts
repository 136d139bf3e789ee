import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import type { Vec3Like, WorldPort } from '../../src/contracts/world.js';
import { captureView, forkWorld, ViewBoundsError } from '../../src/foresight/index.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { recordingActuators } from './instrumented.js';

const BOUNDS = { radius: 6, height: 4 };

function livedIn(clock: ManualClock): SimWorld {
  const world = SimWorld.create({
    clock,
    inventory: { oak_planks: 5, stick: 2 },
    heldItem: 'stick',
    health: 14,
    food: 9,
    timeOfDay: 6000,
  });
  world.fill({ x: 2, y: 0, z: -1 }, { x: 2, y: 1, z: 1 }, 'stone');
  world.setBlock({ x: -3, y: 0, z: 0 }, 'oak_log');
  world.setBlock({ x: 0, y: -1, z: 3 }, 'bedrock');
  world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: 4.5, y: 0, z: 4.5 }, health: 11 });
  world.spawnEntity({
    name: 'item',
    kind: 'item',
    position: { x: -2.5, y: 0, z: 1.5 },
    item: { name: 'dirt', count: 3 },
  });
  world.spawnEntity({ name: 'cow', kind: 'passive', position: { x: 40, y: 0, z: 0 } });
  return world;
}

/**
 * A world that has not loaded the cells at x = 4 above the ground (blockAt null there, as mineflayer answers for an
 * unloaded chunk): a strip the bot would walk straight across if the unknown were guessed as air.
 */
function hidingAStrip(world: WorldPort): WorldPort {
  const hidden = (p: Vec3Like) => Math.floor(p.x) === 4 && Math.floor(p.y) >= 0;
  return new Proxy(world, {
    get(target, key, receiver) {
      if (key === 'blockAt') return (position: Vec3Like) => (hidden(position) ? null : target.blockAt(position));
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

describe('forkWorld(captureView(world))', () => {
  it('reproduces the blocks in the box, the pack, health, food, time and the mobs and drops in it', async () => {
    const real = livedIn(new ManualClock());
    const view = await captureView(real, BOUNDS);
    const fork = forkWorld(structuredClone(view), { clock: new ManualClock(), mobsAct: false });
    for (let x = -6; x <= 6; x++)
      for (let y = -4; y <= 4; y++)
        for (let z = -6; z <= 6; z++) expect(fork.blockAt({ x, y, z })).toEqual(real.blockAt({ x, y, z }));
    expect(fork.inventory()).toEqual({ oak_planks: 5, stick: 2 });
    expect(fork.heldItem()).toBe('stick');
    expect([fork.health(), fork.food(), fork.timeOfDay()]).toEqual([14, 9, 6000]);
    const seen = await fork.observe({ entities: { names: ['zombie', 'cow'], within: 100 } });
    expect(seen.entities?.map(({ name, position, health }) => ({ name, position, health }))).toEqual([
      { name: 'zombie', position: { x: 4.5, y: 0, z: 4.5 }, health: 11 },
    ]);
    expect(fork.entities().filter((e) => e.kind === 'item')).toMatchObject([{ item: { name: 'dirt', count: 3 } }]);
    expect(fork.unknownTouches).toBe(0);
  });

  it('keeps what the bot has not seen unknown: null to blockAt, a wall to a walk, counted', async () => {
    const real = livedIn(new ManualClock());
    const view = await captureView(hidingAStrip(real), BOUNDS);
    const clock = new ManualClock();
    const fork = forkWorld(view, { clock, mobsAct: false });
    expect(fork.blockAt({ x: 4, y: 1, z: 0 })).toBeNull();
    expect(fork.blockAt({ x: 0, y: 0, z: 20 })).toBeNull();
    expect(fork.blockAt({ x: 4, y: -1, z: 0 })).toMatchObject({ name: 'grass_block' });
    const touchedByReads = fork.unknownTouches;
    expect(touchedByReads).toBe(2);

    let failure: unknown;
    void fork.goto({ kind: 'block', x: 6, y: 0, z: 0 }).catch((error: unknown) => (failure = error));
    await clock.advanceUntil(() => failure !== undefined, 60_000, 100);
    expect(failure).toMatchObject({ code: 'no_path' });
    expect(fork.unknownTouches).toBeGreaterThan(touchedByReads);
    await expect(fork.dig({ x: 4, y: 0, z: 0 })).rejects.toMatchObject({ name: 'WorldError' });
  });

  it('refuses bounds past the limits, naming the field and the fix', async () => {
    const real = livedIn(new ManualClock());
    await expect(captureView(real, { radius: 100, height: 4 })).rejects.toThrow(ViewBoundsError);
    await expect(captureView(real, { radius: 100, height: 4 })).rejects.toThrow(/radius: radius must be at most 32/);
    await expect(captureView(real, { radius: 4, height: 0.5 })).rejects.toThrow(/height: .*whole number/);
  });

  it('never calls an actuator on the real world while capturing and running a fork', async () => {
    const clock = new ManualClock();
    const real = livedIn(clock);
    const { world: instrumented, calls } = recordingActuators(real);
    const forkClock = new ManualClock();
    const fork = forkWorld(await captureView(instrumented, BOUNDS), { clock: forkClock });
    // The fork's zombie would kill the bot (14 health) during its 7.5 s hand-dig of stone, and a dead bot's commands
    // are refused (issue 30): it is taken out, so the three commands run to their end.
    for (const mob of fork.entities().filter((e) => e.name === 'zombie')) fork.removeEntity(mob.id);
    const done = Promise.all([
      fork.dig({ x: 2, y: 0, z: 0 }),
      fork.goto({ kind: 'block', x: -2, y: 0, z: 2 }),
      fork.craft('crafting_table', 1),
    ]);
    await forkClock.advance(30_000);
    await done;
    expect(fork.inventory()).toMatchObject({ crafting_table: 1 });
    expect(fork.blockAt({ x: 2, y: 0, z: 0 })?.name).toBe('air');
    expect(calls).toEqual([]);
    expect(real.actuatorLog).toEqual([]);
    expect(real.blockAt({ x: 2, y: 0, z: 0 })?.name).toBe('stone');
  });
});
