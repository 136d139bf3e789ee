import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judgeStep, observation } from '../../src/testing/index.js';
import takeItems from './index.js';

const chest = { x: -2, y: 1, z: 4 };
const parse = (args: unknown) => takeItems.inputSchema.parse(args);
const seen = (pack: number, inChest: number) =>
  observation({
    inventory: pack > 0 ? { iron_ingot: pack } : {},
    containers: { '-2,1,4': inChest > 0 ? { iron_ingot: inChest } : {} },
  });

describe('take_items acceptance', () => {
  it('ok exactly when the pack gained the items and the chest lost them', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 0, max: 64 }),
        fc.integer({ min: 0, max: 128 }),
        fc.integer({ min: 0, max: 128 }),
        fc.integer({ min: 0, max: 128 }),
        (count, packBefore, chestBefore, packAfter, chestAfter) => {
          const args = parse({ item: 'iron_ingot', count, chest });
          const verdict = judgeStep(takeItems, seen(packBefore, chestBefore), seen(packAfter, chestAfter), args);
          expect(verdict.ok).toBe(packAfter >= packBefore + count && chestAfter <= Math.max(0, chestBefore - count));
        },
      ),
    );
  });

  it('items that appeared in the pack from elsewhere, with the chest untouched, are not a take', () => {
    const args = parse({ item: 'iron_ingot', count: 3, chest });
    const verdict = judgeStep(takeItems, seen(0, 5), seen(3, 5), args);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.unmet.join(' ')).toContain('the container at (-2, 1, 4) holds at most 2');
  });
});
