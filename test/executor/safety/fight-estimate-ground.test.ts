import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock/index.js';
import { assess } from '../../../src/executor/safety/assess.js';
import { weaponStats } from '../../../src/executor/safety/encounter.js';
import { observeEncounter } from '../../../src/executor/safety/index.js';
import type { CombatSettings, HostileSeen } from '../../../src/executor/safety/observation.js';
import { armourOf } from '../../../src/world/mob-rules/index.js';
import { SimWorld } from '../../../src/world/sim/index.js';
import { encounter } from './observe.js';

/*
 * Issue 30 §1: the fight's estimate reads the ground between each walker and the bot. A walker that does not see the
 * bot stays put and is walked up to, where the fighting skill's terms (meet it at full charge, knock it back, step
 * back) do not hold: every blow of it is counted (fight-estimate.ts shareLanded).
 */

const auto: CombatSettings = { combat: 'auto', fightHealthFloor: 6 };
const zombie = (id: number, distance: number, seesBot?: boolean): HostileSeen => ({
  id,
  name: 'zombie',
  distance,
  health: 20,
  reach: 'melee',
  position: { x: distance, y: 0, z: id },
  ...(seesBot === undefined ? {} : { seesBot }),
});
const stance = (seen: Parameters<typeof assess>[0], settings = auto) => {
  const kind = assess(seen, settings, weaponStats).choices.find((c) => c.kind !== 'eat')?.kind;
  return kind === 'fight' || kind === 'close_in' ? 'fight' : kind === undefined ? 'none' : 'flight';
};

/** Flat ground (feet at y 0), the bot at 0,0,0, a zombie 6 blocks east, and a wall of `height` between them. */
function walledOff(height: number) {
  const wall = Array.from({ length: height }, (_, y) =>
    [-1, 0, 1].map((z) => ({ position: { x: 2, y, z }, name: 'stone' })),
  ).flat();
  const world = SimWorld.create({ clock: new ManualClock(), ground: { radius: 20 }, blocks: wall });
  world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: 6.5, y: 0, z: 0.5 } });
  world.spawnEntity({ name: 'skeleton', kind: 'hostile', position: { x: 6.5, y: 0, z: 3.5 } });
  return world;
}

describe('the fight estimate reads whether each walker sees the bot', () => {
  it('a zombie behind a 2-high wall does not see the bot; over a 1-high step or in the open it does; an archer is read by its reach', () => {
    const sight = (height: number) => observeEncounter(walledOff(height), 5).hostiles.map((h) => [h.name, h.seesBot]);
    expect(sight(2)).toEqual([
      ['zombie', false],
      ['skeleton', undefined],
    ]);
    expect(sight(1)).toEqual([
      ['zombie', true],
      ['skeleton', undefined],
    ]);
    expect(sight(0)).toEqual([
      ['zombie', true],
      ['skeleton', undefined],
    ]);
  });

  it('counts every blow of a hidden zombie: one with a stone sword costs its full blows, two hidden ones are no fight', () => {
    const held = { held: 'stone_sword' };
    const cost = (hostiles: HostileSeen[]) =>
      assess(encounter(hostiles, held), auto, weaponStats).fight!.expectedDamage;
    // Seen, the skill keeps it at bay (a zombie's share of 0.1: 3.7); hidden, its blow of 3 lands every second of the
    // killing as the estimate times it (5 hits, each after a 2.3 s return, and half a second to turn: 12.2 s).
    expect(cost([zombie(1, 6)])).toBe(3.7);
    expect(cost([zombie(1, 6, true)])).toBe(3.7);
    expect(cost([zombie(1, 6, false)])).toBe(36.6);
    expect(stance(encounter([zombie(1, 4), zombie(2, 6)], held))).toBe('fight');
    expect(stance(encounter([zombie(1, 4), zombie(2, 6, false)], held))).toBe('flight');
  });
});

/** A zombie `distance` blocks from a bot at the origin, on a bearing of `degrees`. */
const onBearing = (id: number, degrees: number, distance: number): HostileSeen => {
  const angle = (degrees * Math.PI) / 180;
  return { ...zombie(id, distance), position: { x: distance * Math.cos(angle), y: 0, z: distance * Math.sin(angle) } };
};
const AT_ORIGIN = { position: { x: 0, y: 0, z: 0 } };

describe('the fight estimate reads the bearings, the swing and the ground about the bot', () => {
  const cost = (hostiles: HostileSeen[], bot = {}, ground = {}) =>
    assess(
      encounter(hostiles, { held: 'stone_sword', ...AT_ORIGIN, ...bot }, { wayOut: true, ...ground }),
      auto,
      weaponStats,
    ).fight!.expectedDamage;

  it('two zombies on one bearing, or across the bot, cost more than two 45° apart; the one behind or across lands twice', () => {
    const apart = cost([onBearing(1, 0, 4), onBearing(2, 45, 6)]);
    expect(cost([onBearing(1, 0, 4), onBearing(2, 10, 6)])).toBeGreaterThan(apart);
    expect(cost([onBearing(1, 0, 4), onBearing(2, 135, 6)])).toBeGreaterThan(apart);
    // Across, both land twice the share: twice the cost of the same two apart.
    expect(cost([onBearing(1, 0, 4), onBearing(2, 180, 6)])).toBeCloseTo(2 * apart, 0);
  });

  it("an axe's slow swing lets a zombie land twice a sword's share; a bot with 3 of its 8 cells blocked is hemmed in", () => {
    const one = [onBearing(1, 0, 4)];
    expect(cost(one)).toBe(3.7);
    // Its 3 hits to the sword's 5 cost more, not less: 4.5 (at the sword's share, 2.3).
    expect(cost(one, { held: 'stone_axe' })).toBe(4.5);
    expect(cost(one, {}, { blockedAround: 2 })).toBe(3.7);
    expect(cost(one, {}, { blockedAround: 3 })).toBe(7.3); // twice 3.65
  });

  it('counts the cells around the bot that block a step: a stone at its feet or its head, not a flower', () => {
    const world = SimWorld.create({
      clock: new ManualClock(),
      ground: { radius: 20 },
      blocks: [
        { position: { x: 1, y: 0, z: 0 }, name: 'stone' },
        { position: { x: -1, y: 1, z: 1 }, name: 'stone' },
        { position: { x: 0, y: 0, z: -1 }, name: 'poppy' },
        { position: { x: 2, y: 0, z: 0 }, name: 'stone' },
      ],
    });
    expect(observeEncounter(world, 5).ground.blockedAround).toBe(2);
  });
});

const arbWalker = (id: number) =>
  fc
    .record({
      name: fc.constantFrom('zombie', 'husk', 'spider'),
      distance: fc.double({ min: 1, max: 16, noNaN: true }),
      health: fc.integer({ min: 1, max: 20 }),
      seesBot: fc.option(fc.boolean(), { nil: undefined }),
    })
    .map(({ seesBot, ...walker }): HostileSeen => ({
      id,
      ...walker,
      reach: 'melee',
      position: { x: walker.distance, y: 0, z: id },
      ...(seesBot === undefined ? {} : { seesBot }),
    }));
const WEAPONS = [null, 'wooden_sword', 'stone_sword', 'iron_sword', 'stone_axe'];
const arbEncounter = fc
  .record({
    walkers: fc
      .integer({ min: 1, max: 5 })
      .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => arbWalker(i)))),
    health: fc.integer({ min: 1, max: 20 }),
    held: fc.constantFrom(...WEAPONS),
    blocks: fc.integer({ min: 0, max: 20 }),
    leather: fc.boolean(),
  })
  .map(({ walkers, leather, ...bot }) =>
    encounter(walkers, {
      ...bot,
      armour: armourOf(leather ? ['leather_helmet', 'leather_chestplate', 'leather_leggings', 'leather_boots'] : []),
    }),
  );
const arbSettings = fc.record({
  combat: fc.constantFrom<CombatSettings['combat']>('auto', 'avoid'),
  fightHealthFloor: fc.integer({ min: 0, max: 20 }),
});

describe('the fight estimate with hidden walkers: properties', () => {
  it('a walker that does not see the bot never costs less than one that does, nor turns a flight into a fight', () => {
    fc.assert(
      fc.property(arbEncounter, arbSettings, fc.nat(), (seen, settings, pick) => {
        const k = pick % seen.hostiles.length;
        const hide = (seesBot: boolean) => ({
          ...seen,
          hostiles: seen.hostiles.map((h, i) => (i === k ? { ...h, seesBot } : h)),
        });
        const [inSight, hidden] = [hide(true), hide(false)];
        const cost = (s: typeof seen) => assess(s, settings, weaponStats).fight!.expectedDamage;
        expect(cost(hidden)).toBeGreaterThanOrEqual(cost(inSight));
        if (stance(inSight, settings) === 'flight') expect(stance(hidden, settings)).toBe('flight');
      }),
    );
  });

  it('more health or a better weapon never turns a fight into a flight; more walkers never a flight into a fight', () => {
    fc.assert(
      fc.property(
        arbEncounter,
        arbSettings,
        fc.integer({ min: 1, max: 19 }),
        fc.constantFrom('stone_sword', 'iron_sword', 'diamond_sword'),
        arbWalker(99),
        (seen, settings, more, weapon, extra) => {
          const healthier = { ...seen, bot: { ...seen.bot, health: Math.min(20, seen.bot.health + more) } };
          const armed = { ...seen, bot: { ...seen.bot, pack: [...seen.bot.pack, weapon] } };
          const crowded = { ...seen, hostiles: [...seen.hostiles, extra] };
          if (stance(seen, settings) === 'fight') {
            expect(stance(healthier, settings)).toBe('fight');
            expect(stance(armed, settings)).toBe('fight');
          }
          if (stance(seen, settings) === 'flight') expect(stance(crowded, settings)).toBe('flight');
        },
      ),
    );
  });
});
