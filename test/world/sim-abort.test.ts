import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import type { ActuatorOptions, PathStatus } from '../../src/contracts/world.js';
import { SimWorld, track } from '../../src/world/sim/index.js';
import { match } from '../helpers/matchers.js';

function world() {
  const clock = new ManualClock();
  const sim = SimWorld.create({ clock, inventory: { cobblestone: 4, oak_log: 4, bread: 2, stone_axe: 1 }, food: 10 });
  sim.setBlock({ x: 1, y: 0, z: 0 }, 'oak_log');
  const statuses: PathStatus[] = [];
  sim.events.on('path', (s) => statuses.push(s));
  return { clock, sim, statuses };
}

type Call = (sim: SimWorld, options: ActuatorOptions) => Promise<void>;
const calls: Record<string, Call> = {
  goto: (sim, o) => sim.goto({ kind: 'block', x: 0, y: 0, z: 20 }, o),
  dig: (sim, o) => sim.dig({ x: 1, y: 0, z: 0 }, o),
  place: (sim, o) => sim.place({ x: -1, y: 0, z: 0 }, 'cobblestone', o),
  craft: (sim, o) => sim.craft('oak_planks', 3, o),
  equip: (sim, o) => sim.equip('stone_axe', 'hand', o),
  consume: (sim, o) => sim.consume('bread', o),
  move: (sim, o) => sim.move('forward', 2000, o),
};

describe('SimWorld actuators honour AbortSignal', () => {
  for (const [name, call] of Object.entries(calls)) {
    it(`${name}: abort mid-way rejects aborted, stops the effect and leaves zero live actuators`, async () => {
      const { clock, sim } = world();
      const before = await sim.observe({
        blocks: [
          { x: 1, y: 0, z: 0 },
          { x: -1, y: 0, z: 0 },
        ],
      });
      const controller = new AbortController();
      const outcome = track(call(sim, { signal: controller.signal }));
      await clock.advance(20);
      expect(sim.liveActuators()).toBe(1);
      controller.abort();
      await clock.advance(0);
      expect(outcome.outcome).toMatchObject({ state: 'rejected', code: 'aborted' });
      expect(sim.liveActuators()).toBe(0);
      await clock.advance(30_000);
      const after = await sim.observe({
        blocks: [
          { x: 1, y: 0, z: 0 },
          { x: -1, y: 0, z: 0 },
        ],
      });
      expect({ ...after, at: 0 }).toEqual({ ...before, at: 0 });
      expect(clock.pendingTimers()).toBe(0);
      expect(sim.actuatorLog).toMatchObject([{ command: name, outcome: 'aborted', settledAt: 20 }]);
    });

    it(`${name}: an already aborted signal rejects before any effect`, async () => {
      const { clock, sim } = world();
      const outcome = track(call(sim, { signal: AbortSignal.abort() }));
      await clock.advance(0);
      expect(outcome.outcome).toMatchObject({ state: 'rejected', code: 'aborted' });
      expect(sim.liveActuators()).toBe(0);
      expect(clock.pendingTimers()).toBe(0);
    });
  }

  it('a craft aborted between crafts keeps the finished ones and loses no ingredients', async () => {
    const { clock, sim } = world();
    const controller = new AbortController();
    const outcome = track(sim.craft('oak_planks', 3, { signal: controller.signal }));
    await clock.advance(300);
    controller.abort();
    await clock.advance(1000);
    expect(outcome.outcome).toMatchObject({ code: 'aborted' });
    expect(sim.inventory()).toMatchObject({ oak_log: 3, oak_planks: 4 });
  });
});

describe('SimWorld movement control', () => {
  it('stopMovement() stops a goto, rejects it as aborted and says stopped', async () => {
    const { clock, sim, statuses } = world();
    const outcome = track(sim.goto({ kind: 'block', x: 0, y: 0, z: 20 }));
    await clock.advance(500);
    sim.stopMovement();
    await clock.advance(5000);
    expect(outcome.outcome).toMatchObject({ code: 'aborted', message: match.stringContaining('stopMovement') });
    expect(sim.position().z).toBe(2.5);
    expect(statuses).toEqual(['planned', 'stopped']);
    expect(sim.liveActuators()).toBe(0);
  });

  it('a newer goto preempts the running one', async () => {
    const { clock, sim } = world();
    const first = track(sim.goto({ kind: 'block', x: 0, y: 0, z: 20 }));
    await clock.advance(500);
    const second = track(sim.goto({ kind: 'block', x: 0, y: 0, z: -2 }));
    await clock.advance(10_000);
    expect(first.outcome).toMatchObject({ code: 'preempted' });
    expect(second.outcome.state).toBe('ok');
    expect(sim.position()).toEqual({ x: 0.5, y: 0, z: -1.5 });
  });
});

describe('SimWorld disconnect', () => {
  it('rejects every live actuator and every later call with world_disconnected', async () => {
    const { clock, sim } = world();
    const reasons: string[] = [];
    sim.events.on('disconnected', (r) => reasons.push(r));
    const walking = track(sim.goto({ kind: 'block', x: 0, y: 0, z: 20 }));
    await clock.advance(100);
    sim.disconnect('server went away');
    await clock.advance(0);
    expect(walking.outcome).toMatchObject({
      code: 'world_disconnected',
      message: match.stringContaining('server went away'),
    });
    expect(sim.isConnected()).toBe(false);
    expect(reasons).toEqual(['server went away']);
    const later = track(sim.dig({ x: 1, y: 0, z: 0 }));
    await clock.advance(0);
    expect(later.outcome).toMatchObject({ code: 'world_disconnected' });
    await expect(sim.observe()).rejects.toMatchObject({ code: 'world_disconnected' });
    expect(sim.liveActuators()).toBe(0);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('close() disconnects', async () => {
    const { sim } = world();
    await sim.close();
    expect(sim.isConnected()).toBe(false);
  });
});
