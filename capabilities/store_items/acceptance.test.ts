import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judgeStep, observation } from '../../src/testing/index.js';
import storeItems from './index.js';

const chest = { x: 3, y: 0, z: 1 };
const parse = (args: unknown) => storeItems.inputSchema.parse(args);
const seen = (pack: number, inChest: number | null) =>
  observation({
    inventory: pack > 0 ? { cobblestone: pack } : {},
    containers: { '3,0,1': inChest === null ? null : inChest > 0 ? { cobblestone: inChest } : {} },
  });

describe('store_items arguments and acceptance', () => {
  it('takes an item, a count up to a chest full and an optional chest; refuses a fractional chest position', () => {
    expect(parse({ item: 'cobblestone', count: 64 * 27 })).toEqual({ item: 'cobblestone', count: 1728 });
    expect(storeItems.inputSchema.safeParse({ item: 'cobblestone', count: 1729 }).success).toBe(false);
    expect(
      storeItems.inputSchema.safeParse({ item: 'cobblestone', count: 1, chest: { x: 1.5, y: 0, z: 0 } }).success,
    ).toBe(false);
  });

  it('ok exactly when the items left the pack and are in the chest; else it names the side that is short', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 0, max: 64 }),
        fc.integer({ min: 0, max: 64 }),
        fc.integer({ min: 0, max: 128 }),
        fc.integer({ min: 0, max: 128 }),
        (count, packBefore, chestBefore, packAfter, chestAfter) => {
          const args = parse({ item: 'cobblestone', count, chest });
          const verdict = judgeStep(storeItems, seen(packBefore, chestBefore), seen(packAfter, chestAfter), args);
          const packOk = packAfter <= Math.max(0, packBefore - count);
          const chestOk = chestAfter >= chestBefore + count;
          expect(verdict.ok).toBe(packOk && chestOk);
          if (!chestOk && !verdict.ok) expect(verdict.unmet.join(' ')).toContain('the container at (3, 0, 1)');
        },
      ),
    );
  });

  it('a chest the world cannot read (a server other than the embedded one) never passes as stored', () => {
    const args = parse({ item: 'cobblestone', count: 2, chest });
    const blind = observation({ inventory: {} });
    expect(judgeStep(storeItems, seen(2, 0), blind, args).ok).toBe(false);
  });
});
