import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import type { EventOf } from '../../src/executor/events.js';
import { ExecutorPolicy } from '../../src/executor/policy.js';
import { SafetyMonitor } from '../../src/executor/safety/index.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { harness, plan } from '../helpers/executor.js';

/*
 * Issue 30, the tech-tree survival bench: bots never ate (0 meals a run), with no food and nothing that gave any; a bot
 * hurt at night stayed too hungry to heal. A bot that needs food and has none now hunts an animal nearby when no
 * hostile is about: the kill, its drops picked up, a meal, as one repair of the step it interrupted.
 */

const walk = { stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', x: 30, y: 0, z: 0 } } };
const emergencies = (events: readonly { type: string }[]) =>
  (events as EventOf<'safety.emergency'>[])
    .filter((e) => e.type === 'safety.emergency')
    .map((e) => [e.signal, e.response, e.detail]);

describe('hunting for food (SimWorld)', () => {
  it('hungry with nothing to eat and a cow 8 blocks off: kills it, picks up its beef, eats, then walks on, verified', async () => {
    const h = await harness({ ground: { radius: 40 }, food: 3, timeOfDay: 6_000, inventory: { stone_sword: 1 } });
    h.world.spawnEntity({ name: 'cow', kind: 'passive', position: { x: -7.5, y: 0, z: 0.5 } });
    const result = await h.run(plan(walk), 600_000);
    expect(result.ok, JSON.stringify(emergencies(h.events))).toBe(true);
    const hunt = 'hunt: hungry 3 of 20, nothing to eat, cow 8 blocks off';
    expect(emergencies(h.events).slice(0, 3)).toEqual([
      ['hunger', 'attack_entity', hunt],
      ['hunger', 'collect_drops', `${hunt}; then collect_drops`],
      ['hunger', 'consume_food', `${hunt}; then consume_food`],
    ]);
    expect(result.steps.map((s) => [s.step.type, s.outcome.ok])).toEqual([
      ['attack_entity', true],
      ['collect_drops', true],
      ['consume_food', true],
      ['navigate', true],
    ]);
    expect(h.world.entities().filter((e) => e.name === 'cow')).toEqual([]);
    expect(h.world.food()).toBeGreaterThan(3);
    // The hunt is a repair of the step it interrupted, in the result and the journal, for a planner to see.
    const repairs = (h.events as EventOf<'step.repair'>[]).filter((e) => e.type === 'step.repair');
    expect(repairs.map((e) => [e.stepId, e.strategy])).toEqual([
      ['walk', 'defence: attack_entity, then collect_drops, then consume_food for hunger'],
    ]);
  });

  it('at 5 health, too hungry to heal (food 10), nothing to eat: hunts the pig, not the chicken nearer', async () => {
    const h = await harness({ ground: { radius: 40 }, health: 5, food: 10, timeOfDay: 6_000 });
    h.world.spawnEntity({ name: 'chicken', kind: 'passive', position: { x: 3.5, y: 0, z: 0.5 } });
    h.world.spawnEntity({ name: 'pig', kind: 'passive', position: { x: -5.5, y: 0, z: 3.5 } });
    const result = await h.run(plan(walk), 600_000);
    expect(result.ok).toBe(true);
    expect(emergencies(h.events)[0]).toEqual([
      'hunger',
      'attack_entity',
      'hunt: health 5 of 20, too hungry to heal (food 10 of 20), nothing to eat, pig 7 blocks off',
    ]);
    expect(h.world.entities().map((e) => e.name)).toContain('chicken');
    expect(h.world.food()).toBeGreaterThan(10);
  });

  it('with no animal about, the step goes on: the event says so, and no consume_food runs that cannot succeed', async () => {
    const h = await harness({ ground: { radius: 40 }, food: 3, timeOfDay: 6_000 });
    const result = await h.run(plan(walk), 600_000);
    expect(result.steps.map((s) => [s.step.type, s.outcome.ok])).toEqual([['navigate', true]]);
    const said = emergencies(h.events);
    expect(said.length).toBeGreaterThan(0);
    for (const e of said)
      expect(e).toEqual([
        'hunger',
        'none available',
        'hungry 3 of 20, nothing to eat, no animal within 24 blocks to hunt',
      ]);
  });

  it('with nothing to eat or hunt, a long walk is never taken over: no preemption, so no escalation spent on it', async () => {
    // Before: each hunger check took the step over to run a consume_food that could not run; the fifth ended the walk
    // `preempted` (maxPreemptionsPerStep), 20 s into it.
    const h = await harness({ ground: { radius: 120 }, food: 3, timeOfDay: 6_000 });
    const far = { stepId: 'far', type: 'navigate', args: { target: { kind: 'block', x: 110, y: 0, z: 0 } } };
    const result = await h.run(plan(far), 600_000);
    expect(result.steps.map((s) => [s.step.type, s.outcome])).toEqual([['navigate', { ok: true }]]);
    expect(h.events.filter((e) => e.type === 'step.preempted')).toEqual([]);
    // Said every 30 s of it, not every check.
    const said = emergencies(h.events);
    expect(said.length).toBeGreaterThanOrEqual(1);
    expect(said.length).toBeLessThanOrEqual(Math.ceil(result.steps[0]!.durationMs / 30_000));
  });

  it('with a zombie about, no hunt: the cow is left alone', async () => {
    const h = await harness({ ground: { radius: 40 }, food: 3, timeOfDay: 6_000 });
    h.world.spawnEntity({ name: 'cow', kind: 'passive', position: { x: -7.5, y: 0, z: 0.5 } });
    h.world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: -7.5, y: 0, z: 14.5 } });
    await h.run(plan({ stepId: 'wait', type: 'navigate', args: { target: { kind: 'block', x: 0, y: 0, z: 3 } } }));
    expect(emergencies(h.events)[0]).toEqual([
      'hunger',
      'none available',
      'hungry 3 of 20, nothing to eat, cow 8 blocks off, but a zombie is about: no hunt',
    ]);
    expect(h.world.entities().map((e) => e.name)).toContain('cow');
  });

  it("rotten flesh (a zombie's loot) is nothing to eat: consume_food never eats it unasked, so the bot at 4 health hunts", async () => {
    const world = SimWorld.create({
      clock: new ManualClock(),
      ground: { radius: 30 },
      health: 4,
      food: 10,
      inventory: { rotten_flesh: 5 },
    });
    const cow = world.spawnEntity({ name: 'cow', kind: 'passive', position: { x: 6.5, y: 0, z: 0.5 } });
    const monitor = new SafetyMonitor(ExecutorPolicy.parse({}).safety, world);
    // As in service: a weak bot's check judges by the last reading of the time (by day here: no night shelter).
    await monitor.refresh();
    const signal = monitor.check(0);
    expect(signal).toMatchObject({
      signal: 'hunger',
      detail: 'hunt: health 4 of 20, too hungry to heal (food 10 of 20), nothing to eat, cow 6 blocks off',
      responses: [{ verb: 'attack_entity', args: { target: { id: cow } } }],
    });
  });
});
