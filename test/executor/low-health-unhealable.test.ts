import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import { ExecutorPolicy } from '../../src/executor/policy.js';
import { SafetyMonitor } from '../../src/executor/safety/index.js';
import { isNight } from '../../src/contracts/world.js';
import { REGEN_MIN_FOOD } from '../../src/world/health-rules.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { harness, plan } from '../helpers/executor.js';

/*
 * Issue 30, server tech-tree world 7: a bot at 4 health with food below 18 (it heals only by eating then) and nothing
 * to eat dug in "for low health", waited, came out, and dug in again 5 s later, by day with no hostile about, until
 * its plan's escalations ran out. A shelter heals a bot only as the game heals it: by itself at 18 food or more, or
 * after a meal. Without either, low health is no signal; the hostiles about are still judged from that health.
 */

const walk = { stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', x: 30, y: 0, z: 0 } } };

describe('low health that no shelter heals (issue 30, tech-tree world 7)', () => {
  it('by day, at 4 health, too hungry to heal and with nothing to eat: the bot walks on, verified, with no shelter', async () => {
    const h = await harness({ ground: { radius: 40 }, health: 4, food: 10, timeOfDay: 6_000 });
    const result = await h.run(plan(walk), 600_000);
    expect(result.steps.map((s) => [s.step.stepId, s.outcome.ok])).toEqual([['walk', true]]);
    // Nothing is run for it; the events say what is missing (no animal to hunt: test/executor/hunt.test.ts).
    const said = h.events.flatMap((e) => (e.type === 'safety.emergency' ? [[e.signal, e.response, e.detail]] : []));
    expect(new Set(said.map((e) => JSON.stringify(e)))).toEqual(
      new Set([
        JSON.stringify([
          'hunger',
          'none available',
          'health 4 of 20, too hungry to heal (food 10 of 20), nothing to eat, no animal within 24 blocks to hunt',
        ]),
      ]),
    );
    expect(h.world.position()).toMatchObject({ x: 30.5, z: 0.5 });
  });

  it('with a loaf to eat, it eats it first, then walks on: one meal, no shelter that would not heal it', async () => {
    const h = await harness({ ground: { radius: 40 }, health: 4, food: 10, inventory: { bread: 1 }, timeOfDay: 6_000 });
    const result = await h.run(plan(walk), 600_000);
    expect(result.ok).toBe(true);
    expect(result.steps.map((s) => s.step.type)).toEqual(['consume_food', 'navigate']);
    expect(h.world.inventory().bread ?? 0).toBe(0);
    expect(h.world.food()).toBe(15);
  });

  it('fed enough to heal by itself, it still digs in for its health (it heals there)', async () => {
    // SimWorld heals as the game does: at 18 food and 5 saturation, 4 points before the food falls to 17.
    const h = await harness({ ground: { radius: 40 }, health: 4, food: REGEN_MIN_FOOD, timeOfDay: 6_000 });
    const result = await h.run(plan(walk), 600_000);
    expect(result.ok).toBe(true);
    expect(result.steps.map((s) => s.step.type)).toEqual(['dig_in', 'leave_shelter', 'navigate']);
    expect([h.world.health(), h.world.food()]).toEqual([8, 17]);
  });
});

/*
 * Issue 30, server tech-tree world 4 (2026-12-07): at night a bot at 5 health, too hungry to heal and with nothing to
 * eat, hunted a sheep 17 blocks off, went on with its plan in the dark, fled a zombie at 1 health and died. Weak at
 * night with no way to heal, a bot shelters until the day; by day it hunts.
 */
describe('low health that no shelter heals, at night (issue 30, tech-tree world 4)', () => {
  const NIGHT = 18_000;
  const DAWN = 23_459;
  const said = (h: Awaited<ReturnType<typeof harness>>) =>
    h.events.flatMap((e) =>
      e.type === 'safety.emergency' ? [{ signal: e.signal, response: e.response, at: e.at }] : [],
    );

  it('at 5 health, food 10, nothing to eat and a cow 8 blocks off: digs in until day, then hunts the cow and walks on', async () => {
    const h = await harness({ ground: { radius: 40 }, health: 5, food: 10, timeOfDay: NIGHT, daylightCycle: true });
    h.world.spawnEntity({ name: 'cow', kind: 'passive', position: { x: -7.5, y: 0, z: 0.5 } });
    const result = await h.run(plan(walk), 1_800_000);
    expect(result.ok, JSON.stringify(said(h))).toBe(true);
    const steps = result.steps.map((s) => s.step.type);
    // Out by day, the hunt: the kill, its drops, a meal (a second beef may make a second meal), then the walk.
    expect(steps.slice(0, 5)).toEqual(['dig_in', 'leave_shelter', 'attack_entity', 'collect_drops', 'consume_food']);
    expect(steps.at(-1)).toBe('navigate');
    expect(steps.filter((verb) => verb === 'dig_in')).toHaveLength(1);
    const hunt = said(h).find((e) => e.response === 'attack_entity')!;
    expect(said(h)[0]).toMatchObject({ signal: 'low_health', response: 'dig_in' });
    // The hunt came by day: the clock (from 0, 20 ticks a second) had run past the night when the bot went for it.
    const huntTick = NIGHT + (hunt.at * 20) / 1000;
    expect(huntTick).toBeGreaterThanOrEqual(DAWN);
    expect(h.world.food()).toBeGreaterThan(10);
  });

  it('over generated health, food, time, packs and ground: low health is a signal exactly when a meal or the wait would heal, or at night with a shelter to build; then never a hunt', async () => {
    const policy = ExecutorPolicy.parse({}).safety;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 0, max: 23_999 }),
        fc.subarray(['bread', 'cooked_beef', 'apple', 'dirt', 'wooden_sword']),
        fc.boolean(),
        fc.constantFrom('grass_block', 'obsidian'),
        async (health, food, timeOfDay, items, cow, ground) => {
          const world = SimWorld.create({
            clock: new ManualClock(),
            // Obsidian: no hole dug by hand in time, and no blocks in the pack for a pillar: no shelter here.
            ground: { radius: 8, surface: ground, filler: ground },
            health,
            food,
            timeOfDay,
            inventory: Object.fromEntries(items.map((item) => [item, 1])),
          });
          if (cow) world.spawnEntity({ name: 'cow', kind: 'passive', position: { x: 6.5, y: 0, z: 0.5 } });
          // As in service: the check judges by the last reading of the world (the time, for a weak bot).
          const monitor = new SafetyMonitor(policy, world);
          await monitor.refresh();
          const signal = monitor.check(0);
          const edible = items.some((item) => ['bread', 'cooked_beef', 'apple'].includes(item));
          const heals = food >= REGEN_MIN_FOOD || edible;
          const low = health < policy.minHealth;
          const nightShelter = isNight(timeOfDay) && ground === 'grass_block';
          expect(signal?.signal === 'low_health').toBe(low && (heals || nightShelter));
          if (low && !heals && nightShelter) {
            expect(signal?.detail).toContain('at night');
            expect(signal?.responses.map((r) => r.verb)).not.toContain('attack_entity');
          }
          // Too hungry to heal and nothing to eat by day, or with no shelter to build at night: a hunt when there is an
          // animal, said as hunger.
          if (low && !heals && !nightShelter)
            expect(signal).toMatchObject({ signal: 'hunger', responses: cow ? [{ verb: 'attack_entity' }] : [] });
          // Too hungry to heal, it is still told to eat when the hunger itself is the signal.
          if (!low && food < policy.minFood && edible) expect(signal?.signal).toBe('hunger');
        },
      ),
      { numRuns: 300 },
    );
  });
});
