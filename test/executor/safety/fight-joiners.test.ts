import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { armourOf, HOSTILE_STATS, MELEE_REACH } from '../../../src/world/mob-rules/index.js';
import { assess } from '../../../src/executor/safety/assess.js';
import { estimateFight, fightTimeline } from '../../../src/executor/safety/fight-estimate.js';
import type { CombatSettings, HostileSeen } from '../../../src/executor/safety/observation.js';
import { weaponStats } from '../../../src/executor/safety/encounter.js';
import { WEAPONS } from './arbitraries.js';
import { encounter, mobSeen } from './observe.js';

/*
 * A walker still on its way to a fight (arrivesInS) against the same walker already in it: the night bench's
 * zombies-4/stone placement 0, where three zombies and a fourth 18 blocks off were judged a flight that four at hand
 * were not, and the bot fled them five times at full health.
 */

const auto: CombatSettings = { combat: 'auto', fightHealthFloor: 6 };
const LEATHER = armourOf(['leather_helmet', 'leather_chestplate', 'leather_leggings', 'leather_boots']);

const zombie = (id: number, distance: number, health = 20): HostileSeen => ({
  ...mobSeen('zombie', 'melee')(id, distance),
  health,
});

/** The same zombie beyond the encounter, in melee reach in `seconds`. */
const onItsWay = (mob: HostileSeen, seconds: number): HostileSeen => ({ ...mob, reach: 'none', arrivesInS: seconds });

const arbZombies = fc
  .array(
    fc.record({
      distance: fc.double({ min: 1, max: 16, noNaN: true }),
      health: fc.oneof(fc.constant(20), fc.integer({ min: 1, max: 20 })),
    }),
    {
      minLength: 1,
      maxLength: 5,
    },
  )
  .map((mobs) => mobs.map(({ distance, health }, i) => zombie(i + 1, distance, health)));
const arbKit = fc.record({
  held: fc.constantFrom(...WEAPONS),
  armour: fc.constantFrom(armourOf([]), LEATHER),
});

describe('a walker on its way to a fight', () => {
  it('three zombies at hand and a fourth 18 blocks off, a stone sword and leather at full health: a fight, as four at hand are', () => {
    const kit = { held: 'stone_sword', armour: LEATHER };
    const atHand = [zombie(1, 4.7), zombie(2, 5.5), zombie(3, 6.4)];
    const fourth = zombie(4, 18);
    const arrives = (18 - MELEE_REACH) / HOSTILE_STATS.zombie!.speed;
    const coming = assess(encounter([...atHand, onItsWay(fourth, arrives)], kit), auto, weaponStats);
    const allHere = assess(encounter([...atHand, zombie(4, 7)], kit), auto, weaponStats);
    expect(allHere.choices[0]).toMatchObject({ kind: 'fight', weapon: 'stone_sword' });
    expect(coming.choices[0]).toMatchObject({ kind: 'fight', weapon: 'stone_sword' });
    expect(coming.fight!.targets.map((t) => t.id)).toEqual([1, 2, 3, 4]);
    expect(coming.fight!.expectedDamage).toBeLessThanOrEqual(allHere.fight!.expectedDamage);
    expect(coming.choices[0]!.reason).toMatch(/^4 zombies, stone_sword 5 per hit, expected [\d.]+ damage taken of 20$/);
  });

  it('over generated crowds: zombies still coming never cost more than the same zombies in the fight from the start', () => {
    fc.assert(
      fc.property(
        arbZombies,
        fc.array(fc.double({ min: 0, max: 60, noNaN: true }), { minLength: 1, maxLength: 3 }),
        arbKit,
        (crowd, arrivals, kit) => {
          const split = Math.max(1, crowd.length - arrivals.length);
          const [atHand, later] = [crowd.slice(0, split), crowd.slice(split)];
          const coming = later.map((mob, i) => onItsWay(mob, arrivals[i]!));
          const weapon = weaponStats(kit.held);
          const run = fightTimeline(encounter([...atHand, ...coming], kit), atHand, weapon, coming);
          // The joiners in the order they come, in the fight from its first swing.
          const byArrival = [...coming].sort((a, b) => a.arrivesInS! - b.arrivesInS!);
          const fromTheStart = fightTimeline(encounter(crowd, kit), [...atHand, ...byArrival], weapon);
          expect(run.damage).toBeLessThanOrEqual(fromTheStart.damage);
          // The whole estimate, each weapon and order weighed, is no dearer than with every zombie at hand, when the
          // ones coming are fresh (a weaker one at hand is killed first; one still coming cannot be).
          if (later.some((mob) => mob.health !== 20)) return;
          const estimate = estimateFight(encounter([...atHand, ...coming], kit), atHand, weaponStats);
          const allHere = estimateFight(encounter(crowd, kit), crowd, weaponStats);
          expect(estimate!.expectedDamage).toBeLessThanOrEqual(allHere!.expectedDamage);
        },
      ),
    );
  });

  it('over generated crowds: a zombie that comes later never costs more, and one arriving at the first swing costs what it costs at hand', () => {
    fc.assert(
      fc.property(
        arbZombies,
        fc.double({ min: 0, max: 60, noNaN: true }),
        fc.double({ min: 0, max: 60, noNaN: true }),
        arbKit,
        (atHand, one, other, kit) => {
          const [sooner, later] = one <= other ? [one, other] : [other, one];
          const walker = zombie(atHand.length + 1, 18);
          const weapon = weaponStats(kit.held);
          const costAt = (seconds: number) => {
            const coming = [onItsWay(walker, seconds)];
            return fightTimeline(encounter([...atHand, ...coming], kit), atHand, weapon, coming).damage;
          };
          expect(costAt(later)).toBeLessThanOrEqual(costAt(sooner));
          const here = fightTimeline(encounter([...atHand, walker], kit), [...atHand, walker], weapon).damage;
          expect(costAt(0)).toBe(here);
        },
      ),
    );
  });
});
