import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { armourOf, armourPiece, damageAfterArmour } from '../../src/world/mob-rules/armour.js';

// Each number is the Minecraft Wiki's (Armor: defense points, toughness, damage reduction); a drift fails here.
describe('armour, as vanilla counts it', () => {
  it('gives each piece its defense points and toughness', () => {
    expect(armourOf(['leather_helmet', 'leather_chestplate', 'leather_leggings', 'leather_boots'])).toEqual({
      points: 7,
      toughness: 0,
    });
    expect(armourOf(['iron_helmet', 'iron_chestplate', 'iron_leggings', 'iron_boots']).points).toBe(15);
    expect(armourOf(['diamond_helmet', 'diamond_chestplate', 'diamond_leggings', 'diamond_boots'])).toEqual({
      points: 20,
      toughness: 8,
    });
    expect(armourOf(['netherite_chestplate'])).toEqual({ points: 8, toughness: 3 });
    expect(armourPiece('turtle_helmet')).toEqual({ points: 2, toughness: 0 });
    expect(armourPiece('stone_sword')).toBeNull();
    expect(armourPiece('golden_apple')).toBeNull();
  });

  it('takes off what the formula says', () => {
    // No armour: the hit as it is.
    expect(damageAfterArmour(3, { points: 0, toughness: 0 })).toBe(3);
    // Full diamond against a zombie's 3: 20 points, 20 − 3 / 4 = 19.25 → 3 × (1 − 19.25 / 25) = 0.69.
    expect(damageAfterArmour(3, { points: 20, toughness: 8 })).toBeCloseTo(0.69, 10);
    // Full leather against 3: 7 − 1.5 = 5.5 → 3 × 0.78 = 2.34.
    expect(damageAfterArmour(3, { points: 7, toughness: 0 })).toBeCloseTo(2.34, 10);
    // A big hit pierces down to a fifth of the points: 7 points against 40 → 40 × (1 − 1.4 / 25).
    expect(damageAfterArmour(40, { points: 7, toughness: 0 })).toBeCloseTo(40 * (1 - 1.4 / 25), 10);
  });

  it('never adds damage, and more armour never takes more', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 0, max: 12 }),
        (damage, points, more, toughness) => {
          const less = damageAfterArmour(damage, { points, toughness });
          expect(less).toBeLessThanOrEqual(damage);
          expect(less).toBeGreaterThanOrEqual(0);
          expect(damageAfterArmour(damage, { points: points + more, toughness })).toBeLessThanOrEqual(less + 1e-9);
        },
      ),
    );
  });
});
