import { describe, expect, it } from 'vitest';
import type { EventOf } from '../../src/executor/events.js';
import { harness, type Harness, plan } from '../helpers/executor.js';

/** Eight zombies on a ring 8 blocks round the bot's spawn. */
const ZOMBIES = Array.from({ length: 8 }, (_, i) => [
  Math.round(8 * Math.cos((i * Math.PI) / 4)),
  Math.round(8 * Math.sin((i * Math.PI) / 4)),
]);

const walk = (x: number, z: number) => ({
  stepId: 'walk',
  type: 'navigate',
  args: { target: { kind: 'block', x, y: 0, z } },
});

function trace(h: Harness, result: { ok: boolean; code?: string; detail?: string }) {
  const emergencies = h.events.filter((e): e is EventOf<'safety.emergency'> => e.type === 'safety.emergency');
  const ended = h.events.filter((e): e is EventOf<'step.ended'> => e.type === 'step.ended');
  const summary = JSON.stringify({
    result: [result.ok, result.code, result.detail],
    emergencies: emergencies.map((e) => [e.at, e.response, e.detail]),
    ended: ended.map((e) => [e.at, e.stepId, e.outcome.ok ? 'ok' : e.outcome.detail]),
    health: h.world.health(),
  });
  return { emergencies, ended, summary };
}

// The night tech-tree bench's server worlds 8 and 9: dug in from a skeleton, the bot waited 20 s three times over,
// each wait ending the step with the skeleton still there, until the plan's escalations ran out. The night's mobs do
// not leave a bot they lost sight of; the sun burns them.
describe('a night in the hole, on SimWorld', () => {
  it('dug in from a skeleton that stays, the bot waits for day, saying so, and walks on once the sun burnt it', async () => {
    // At half health with a shovel, eight zombies about: too many to fight, so the bot digs in.
    const h = await harness(
      {
        ground: { radius: 40 },
        timeOfDay: 21_500,
        daylightCycle: true,
        health: 10,
        inventory: { dirt: 2, wooden_shovel: 1 },
      },
      { policy: { safety: { hostileRadius: 8 } } },
    );
    const zombies = ZOMBIES.map(([x, z]) =>
      h.world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: x! + 0.5, y: 0, z: z! + 0.5 } }),
    );
    const skeleton = h.world.spawnEntity({ name: 'skeleton', kind: 'hostile', position: { x: 0.5, y: 0, z: -11.5 } });
    h.assembly.executor.events.on('event', (event) => {
      if (event.type !== 'step.ended' || event.verb !== 'dig_in' || !event.outcome.ok) return;
      for (const id of zombies) h.world.removeEntity(id);
      // The skeleton stays until the sun is up; then it burns (taken out of the world once the sun has had time).
      h.clock.setTimeout(() => h.world.removeEntity(skeleton), (23_459 - 21_500) * 50 + 10_000);
    });
    const result = await h.run(plan(walk(12, 12)), 600_000);
    const { emergencies, ended, summary } = trace(h, result);
    expect(
      ended.map((e) => e.stepId),
      summary,
    ).toEqual(['walk/safety-dig_in', 'walk/safety-leave_shelter', 'walk']);
    expect(result.ok, summary).toBe(true);
    const waits = emergencies.filter((e) => e.response === 'wait');
    expect(waits.length, summary).toBeGreaterThanOrEqual(3);
    expect(waits[0]!.detail, summary).toMatch(/^dug in from a skeleton: waited 30 s of at most 13\d s$/);
  });
});

// SimWorld's night tech-tree worlds 8 and 10: a bare-handed bot fled a lone zombie five times over, each resumed step
// walking back to it, until the step ended `preempted`.
describe('a bare-handed bot chased at night, on SimWorld', () => {
  it('flees the zombie, digs in where the flight ended, waits for day and walks on', async () => {
    const h = await harness({ ground: { radius: 60 }, timeOfDay: 20_000, daylightCycle: true });
    h.world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: 4.5, y: 0, z: 0.5 }, ai: true });
    const result = await h.run(plan(walk(30, 0)), 900_000);
    const { emergencies, summary } = trace(h, result);
    expect(emergencies[0]?.response, summary).toBe('flee');
    const hole = emergencies.find((e) => e.response === 'dig_in');
    expect(hole?.detail, summary).toMatch(
      /^fled, and a zombie still comes on at night \([\d.]+ blocks off\): shelter dug in/,
    );
    expect(emergencies.filter((e) => e.response === 'flee').length, summary).toBeLessThan(3);
    expect(result.ok, summary).toBe(true);
    expect(h.deaths, summary).toEqual([]);
  });
});

// A step that ended in the hole left the bot there; the next step waited for the walkers about without looking for a
// breach, so a skeleton that got into the hole shot the bot for the whole wait.
describe('waiting in the shelter before the next step, on SimWorld', () => {
  it('a skeleton that gets into the hole is fought, and the bot lives', async () => {
    const h = await harness({ inventory: { dirt: 1, wooden_shovel: 1, stone_sword: 1 }, health: 12 });
    let skeleton: number | undefined;
    h.assembly.executor.events.on('event', (event) => {
      if (event.type !== 'step.ended' || event.stepId !== 'hole') return;
      // A skeleton about keeps the bot in (a walker would not by day: the bot outwalks it); another drops in 2 s into
      // the wait.
      h.world.spawnEntity({ name: 'skeleton', kind: 'hostile', position: { x: 3.5, y: 0, z: 0.5 } });
      h.clock.setTimeout(() => {
        skeleton = h.world.spawnEntity({ name: 'skeleton', kind: 'hostile', position: h.world.position(), ai: true });
      }, 2_000);
    });
    const result = await h.run(plan({ stepId: 'hole', type: 'dig_in', args: {} }, walk(6, 0)));
    const { emergencies, summary } = trace(h, result);
    expect(emergencies[0]?.detail, summary).toMatch(/^a skeleton gets at it dug in; fight: a skeleton/);
    expect(
      h.world.entities().map((e) => e.id),
      summary,
    ).not.toContain(skeleton);
    expect(h.deaths, summary).toEqual([]);
    expect(result.detail, summary).toMatch(/still about after 20 s.*; a skeleton gets at it dug in: fought it/);
  });
});
