import fc from 'fast-check';
import { armourOf } from '../../../src/world/mob-rules/index.js';
import type { CombatSettings, Reach } from '../../../src/executor/safety/observation.js';
import { encounter } from './observe.js';

/** Arbitrary encounters for the safety assessment's properties: up to 8 hostiles of every kind, any pack, any ground. */

export const WEAPONS = [
  null,
  'wooden_sword',
  'stone_sword',
  'iron_sword',
  'diamond_sword',
  'stone_axe',
  'iron_pickaxe',
  'wooden_shovel',
];
const kinds = fc.constantFrom<[string, Reach]>(
  ['zombie', 'melee'],
  ['husk', 'melee'],
  ['skeleton', 'bow'],
  ['creeper', 'explosion'],
  ['spider', 'melee'],
);
export const arbHostile = (id: number) =>
  fc
    .record({
      kind: kinds,
      distance: fc.double({ min: 1, max: 16, noNaN: true }),
      health: fc.integer({ min: 1, max: 20 }),
      x: fc.integer({ min: -16, max: 16 }),
      z: fc.integer({ min: -16, max: 16 }),
    })
    .map(({ kind: [name, reach], distance, health, x, z }) => ({
      id,
      name,
      distance,
      health,
      reach,
      position: { x, y: 0, z },
    }));
export const arbEncounter = fc
  .record({
    hostiles: fc
      .array(fc.nat(), { minLength: 1, maxLength: 8 })
      .chain((ids) => fc.tuple(...ids.map((_, i) => arbHostile(i + 1)))),
    health: fc.integer({ min: 1, max: 20 }),
    food: fc.integer({ min: 0, max: 20 }),
    held: fc.constantFrom(...WEAPONS),
    pack: fc.subarray(WEAPONS.filter((w): w is string => w !== null)),
    blocks: fc.integer({ min: 0, max: 20 }),
    foods: fc.subarray(['bread', 'cooked_beef']),
    wayOut: fc.boolean(),
    digIn: fc.option(fc.record({ ms: fc.integer({ min: 50, max: 30_000 }), yieldsCover: fc.boolean() }), {
      nil: undefined,
    }),
  })
  .map(({ hostiles, wayOut, digIn, ...bot }) =>
    encounter(hostiles, { ...bot, armour: armourOf([]) }, { wayOut, ...(digIn ? { digIn } : {}) }),
  );
export const arbSettings = fc.record({
  combat: fc.constantFrom<CombatSettings['combat']>('auto', 'avoid'),
  fightHealthFloor: fc.integer({ min: 0, max: 20 }),
});
