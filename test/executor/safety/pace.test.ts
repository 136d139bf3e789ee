import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assess } from '../../../src/executor/safety/assess.js';
import { weaponStats } from '../../../src/executor/safety/encounter.js';
import { clearance, keepsPace } from '../../../src/executor/safety/flight.js';
import type { Choice, CombatSettings, HostileSeen } from '../../../src/executor/safety/observation.js';
import { encounter } from './observe.js';

/*
 * What a flight cannot shake off (a spider leaps and climbs) is fought, never run from; a creeper is fled past its
 * follow range, so that the same one does not walk after the bot into the monitor's radius again.
 */

const auto: CombatSettings = { combat: 'auto', fightHealthFloor: 6 };

function mob(id: number, name: string, distance: number, reach: HostileSeen['reach'] = 'melee'): HostileSeen {
  return { id, name, distance, health: null, reach, position: { x: distance, y: 0, z: id } };
}

const kinds = (choices: readonly Choice[]) => choices.map((c) => (c.kind === 'shelter' ? c.verb : c.kind));

describe('a spider keeps pace with a flight: fight it, or dig in', () => {
  it('only the kinds that leap or climb keep pace', () => {
    expect(['spider', 'zombie', 'husk', 'skeleton', 'creeper'].filter((name) => keepsPace({ name }))).toEqual([
      'spider',
    ]);
  });

  it('hurt below the floor with a spider on it and blocks in the pack: a fight, no flight, no pillar, no wall', () => {
    const a = assess(encounter([mob(1, 'spider', 3)], { health: 5, blocks: 16 }), auto, weaponStats);
    expect(kinds(a.choices)).toEqual(['fight']);
    expect(a.choices[0]!.reason).toMatch(
      /^cornered: a flight does not shake off a spider \(it leaps and climbs\); a spider, bare hands 1 per hit, expected [\d.]+ damage taken of 5$/,
    );
    expect(a.choices[0]).toMatchObject({ breakOffBelow: 0 });
  });

  it('with a shovel and ground to dig: the fight first, the hole after it, never a flight', () => {
    const spiders = [mob(1, 'spider', 6), mob(2, 'spider', 8)];
    const kit = { held: 'stone_sword', pack: ['wooden_shovel'], blocks: 4 };
    expect(kinds(assess(encounter(spiders, kit), auto, weaponStats).choices)).toEqual(['fight', 'dig_in']);
    expect(kinds(assess(encounter(spiders, { ...kit, health: 4 }), auto, weaponStats).choices)).toEqual([
      'fight',
      'dig_in',
    ]);
  });

  it('with zombies it can outrun, it flees them and is judged clear of them only; the spider is fought after', () => {
    const crowd = [...[1, 2, 3, 4, 5].map((id) => mob(id, 'zombie', 3 + id)), mob(9, 'spider', 4)];
    const [first] = assess(encounter(crowd), auto, weaponStats).choices;
    expect(first).toMatchObject({ kind: 'flee', clearOf: ['zombie'], distance: 10 });
  });

  it("with combat 'avoid' it still never fights: the flight is the policy's", () => {
    const a = assess(encounter([mob(1, 'spider', 3)]), { ...auto, combat: 'avoid' }, weaponStats);
    expect(kinds(a.choices)).toEqual(['flee']);
  });
});

describe('a creeper is fled past its follow range', () => {
  it('a flight from a creeper ends 17 blocks clear (its follow range is 16), from walkers 10, from an archer 16', () => {
    expect(clearance([mob(1, 'creeper', 5, 'explosion')])).toBe(17);
    expect(clearance([mob(1, 'zombie', 5)])).toBe(10);
    expect(clearance([mob(1, 'skeleton', 9, 'bow')])).toBe(16);
    const a = assess(encounter([mob(1, 'creeper', 4.8, 'explosion')]), auto, weaponStats);
    expect(a.choices[0]).toMatchObject({ kind: 'flee', clearOf: ['creeper'], distance: 17 });
  });
});

const WEAPONS = [null, 'wooden_sword', 'stone_sword', 'iron_sword', 'stone_axe', 'wooden_shovel'];
const arbSpiders = fc
  .array(
    fc.record({
      distance: fc.double({ min: 1, max: 16, noNaN: true }),
      health: fc.integer({ min: 1, max: 16 }),
      x: fc.integer({ min: -16, max: 16 }),
      z: fc.integer({ min: -16, max: 16 }),
    }),
    { minLength: 1, maxLength: 4 },
  )
  .map((spiders) =>
    spiders.map(({ distance, health, x, z }, i) => ({
      ...mob(i + 1, 'spider', distance),
      health,
      position: { x, y: 0, z },
    })),
  );
const arbCornered = fc
  .record({
    spiders: arbSpiders,
    health: fc.integer({ min: 1, max: 20 }),
    held: fc.constantFrom(...WEAPONS),
    blocks: fc.integer({ min: 0, max: 20 }),
    wayOut: fc.boolean(),
    digIn: fc.option(fc.record({ ms: fc.integer({ min: 50, max: 30_000 }), yieldsCover: fc.boolean() }), {
      nil: undefined,
    }),
    floor: fc.integer({ min: 0, max: 20 }),
  })
  .map(({ spiders, health, held, blocks, wayOut, digIn, floor }) => ({
    seen: encounter(spiders, { health, held, blocks }, { wayOut, ...(digIn ? { digIn } : {}) }),
    settings: { combat: 'auto' as const, fightHealthFloor: floor },
  }));

describe('a spider keeps pace with a flight: properties', () => {
  it('with only spiders in reach, the first choice is a fight, and no choice is a flight, a pillar or a wall', () => {
    fc.assert(
      fc.property(arbCornered, ({ seen, settings }) => {
        const { choices } = assess(seen, settings, weaponStats);
        expect(choices[0]?.kind).toBe('fight');
        expect(kinds(choices).filter((k) => k === 'flee' || k === 'pillar_up' || k === 'wall_in')).toEqual([]);
      }),
    );
  });
});
