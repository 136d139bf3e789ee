import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EXHAUSTION_PER_POINT,
  MAX_HEALTH,
  REGEN_MIN_FOOD,
  type Vitals,
  eat,
  exhaust,
  regenerationTick,
} from '../../src/world/health-rules.js';

/** Vitals a survival player can have: integer health and food, saturation never above the food. */
const vitals = fc
  .record({
    health: fc.integer({ min: 0, max: MAX_HEALTH }),
    food: fc.integer({ min: 0, max: 20 }),
    saturationShare: fc.double({ min: 0, max: 1, noNaN: true }),
    exhaustion: fc.double({ min: 0, max: EXHAUSTION_PER_POINT, maxExcluded: true, noNaN: true }),
  })
  .map(({ saturationShare, ...rest }): Vitals => ({ ...rest, saturation: rest.food * saturationShare }));

/** Exertions as the server counts them: a sprinted metre's 0.1, a jump's 0.05, a sprint-jump's 0.2, a heal's 6. */
const exertions = fc.array(fc.constantFrom(0.05, 0.1, 0.2, 0.35, 6), { maxLength: 40 });

describe('natural regeneration (vanilla FoodData.tick, src/world/health-rules.ts)', () => {
  it('from 10 health, 20 food and 5 saturation: six points healed, paid in saturation then food, and it stops at 16 food', () => {
    let now: Vitals = { health: 10, food: 20, saturation: 5, exhaustion: 0 };
    const seen: [number, number, number][] = [];
    for (let tick = 0; tick < 8; tick++) {
      now = regenerationTick(now);
      seen.push([now.health, now.food, now.saturation]);
    }
    expect(seen).toEqual([
      [11, 20, 4],
      [12, 20, 2],
      [13, 20, 1],
      [14, 19, 0],
      [15, 18, 0],
      [16, 16, 0],
      [16, 16, 0],
      [16, 16, 0],
    ]);
  });

  it('over generated vitals: never above 20 health, never a heal below 18 food, never more food or saturation', () => {
    fc.assert(
      fc.property(vitals, (before) => {
        const after = regenerationTick(before);
        const heals = before.health > 0 && before.health < MAX_HEALTH && before.food >= REGEN_MIN_FOOD;
        expect(after.health).toBe(heals ? before.health + 1 : before.health);
        expect(after.health).toBeLessThanOrEqual(MAX_HEALTH);
        if (!heals) expect(after).toBe(before);
        expect(after.food).toBeLessThanOrEqual(before.food);
        expect(after.saturation).toBeLessThanOrEqual(before.saturation);
        expect(after.food).toBeGreaterThanOrEqual(0);
        expect(after.saturation).toBeGreaterThanOrEqual(0);
        expect(after.saturation).toBeLessThanOrEqual(after.food);
      }),
      { numRuns: 500 },
    );
  });

  it('over generated exertions: every exhaustion is paid, a point of saturation or food per 4, the rest carried', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 0, max: 20 }),
        exertions,
        (food, saturationAsked, amounts) => {
          const start = { food, saturation: Math.min(food, saturationAsked), exhaustion: 0 };
          const end = amounts.reduce((hunger, amount) => exhaust(hunger, amount), start);
          const spent = start.food + start.saturation - (end.food + end.saturation);
          const total = amounts.reduce((sum, amount) => sum + amount, 0);
          expect(end.exhaustion).toBeGreaterThanOrEqual(0);
          expect(end.exhaustion).toBeLessThan(EXHAUSTION_PER_POINT);
          // With food and saturation left, the whole exhaustion is accounted for; once both are 0 a point costs nothing.
          if (end.food > 0) expect(spent * EXHAUSTION_PER_POINT + end.exhaustion).toBeCloseTo(total, 9);
          else expect(spent * EXHAUSTION_PER_POINT + end.exhaustion).toBeLessThanOrEqual(total + 1e-9);
          expect(end.saturation).toBeLessThanOrEqual(end.food);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a meal adds its food points and its saturation, the saturation never above the food', () => {
    expect(eat({ food: 14, saturation: 0, exhaustion: 1 }, 5, 6)).toEqual({ food: 19, saturation: 6, exhaustion: 1 });
    expect(eat({ food: 17, saturation: 3, exhaustion: 0 }, 5, 6)).toEqual({ food: 20, saturation: 9, exhaustion: 0 });
    expect(eat({ food: 1, saturation: 1, exhaustion: 0 }, 1, 6)).toEqual({ food: 2, saturation: 2, exhaustion: 0 });
  });
});
