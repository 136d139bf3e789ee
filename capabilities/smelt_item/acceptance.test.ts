import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuelFor } from '../../src/index.js';
import { judgeStep, observation } from '../../src/testing/index.js';
import { fuelToBurn, inputFor } from './choice.js';
import smeltItem from './index.js';

const parse = (args: unknown) => smeltItem.inputSchema.parse(args);

describe('smelt_item arguments and acceptance', () => {
  it('defaults count to 1 and takes an optional fuel; refuses a count above a stack', () => {
    expect(parse({ item: 'iron_ingot' })).toEqual({ item: 'iron_ingot', count: 1 });
    expect(smeltItem.inputSchema.safeParse({ item: 'iron_ingot', count: 65 }).success).toBe(false);
  });

  it('the deadline grows with the count: each item adds 10 s', () => {
    expect(
      smeltItem.durationFor!(parse({ item: 'stone', count: 8 })) -
        smeltItem.durationFor!(parse({ item: 'stone', count: 1 })),
    ).toBe(70_000);
  });

  it('picks an input the pack holds enough of, and a fuel that lasts without eating the input', () => {
    expect(inputFor(parse({ item: 'iron_ingot', count: 2 }), { iron_ore: 1, raw_iron: 2 })).toBe('raw_iron');
    expect(inputFor(parse({ item: 'iron_ingot', count: 3 }), { raw_iron: 2 })).toBeNull();
    // Charcoal from logs: the logs are the input, so only the spare ones can burn.
    expect(fuelToBurn(parse({ item: 'charcoal', count: 2 }), 'oak_log', { oak_log: 4 })).toBe('oak_log');
    expect(fuelToBurn(parse({ item: 'charcoal', count: 2 }), 'oak_log', { oak_log: 3 })).toBeNull();
    expect(fuelToBurn(parse({ item: 'stone', count: 9 }), 'cobblestone', { coal: 2, oak_planks: 64 })).toBe('coal');
    expect(fuelFor('coal', 9)).toBe(2);
  });

  it('any pack short of the asked output fails naming what it holds; the asked output passes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 0, max: 64 }),
        fc.integer({ min: 0, max: 128 }),
        (count, before, after) => {
          const args = parse({ item: 'iron_ingot', count });
          const verdict = judgeStep(
            smeltItem,
            observation({ inventory: { iron_ingot: before } }),
            observation({ inventory: { iron_ingot: after } }),
            args,
          );
          expect(verdict.ok).toBe(after >= before + count);
          if (!verdict.ok) expect(verdict.unmet.join(' ')).toContain(`it holds ${after}`);
        },
      ),
    );
  });
});
