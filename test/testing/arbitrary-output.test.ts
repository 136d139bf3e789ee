import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import collectBlock from '../../capabilities/collect_block/index.js';
import { arbitraryFor, arbitraryOutputFor, judgeStep, observation } from '../../src/testing/index.js';

describe('arbitraries for what a planner writes and what a capability receives', () => {
  it('arbitraryOutputFor yields parsed arguments: defaults filled in, typed as z.output', () => {
    const schema = z.strictObject({ item: z.enum(['oak_log', 'stone']), count: z.int().min(1).max(64).default(1) });
    expectTypeOf<fc.Arbitrary<z.input<typeof schema>>>().toEqualTypeOf(arbitraryFor(schema));
    expectTypeOf<fc.Arbitrary<z.output<typeof schema>>>().toEqualTypeOf(arbitraryOutputFor(schema));
    fc.assert(
      fc.property(arbitraryOutputFor(schema), (args) => {
        expect(typeof args.count).toBe('number');
        expect(schema.parse(args)).toEqual(args);
      }),
    );
  });

  it("feeds a capability's expectations directly (collect_block takes count and radius filled in)", () => {
    fc.assert(
      fc.property(arbitraryOutputFor(collectBlock.inputSchema), (args) => {
        const pre = observation();
        // Nothing gathered: never done, whatever was asked.
        expect(judgeStep(collectBlock, pre, observation(), args).ok).toBe(false);
      }),
      { numRuns: 50 },
    );
  });
});
