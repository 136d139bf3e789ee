import { BLOCK_TAGS, dropItemsOf } from 'verbtree';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judgeStep, observation } from '../../src/testing/index.js';
import collectBlock from './index.js';

const parse = (args: unknown) => collectBlock.inputSchema.parse(args);

describe('collect_block arguments and acceptance', () => {
  it('defaults count to 1 and radius to 32; refuses a name that is neither a block nor a tag, naming the tags', () => {
    expect(parse({ block: 'oak_log' })).toEqual({ block: 'oak_log', count: 1, radius: 32 });
    const bad = collectBlock.inputSchema.safeParse({ block: 'oak_logg' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toContain('#logs');
    expect(collectBlock.inputSchema.safeParse({ block: 'oak_log', count: 0 }).success).toBe(false);
  });

  it('counts what digging gives, not the block: stone gives cobblestone, iron ore raw iron, #logs any log', () => {
    expect(dropItemsOf(['stone'])).toEqual(['cobblestone']);
    expect(dropItemsOf(BLOCK_TAGS['#iron_ores']!)).toEqual(['raw_iron']);
    expect(dropItemsOf(BLOCK_TAGS['#logs']!)).toContain('birch_log');
  });

  it('any pack short of the asked gain fails, naming what it holds; the asked gain, in any mix of the kinds, passes', () => {
    const logs = dropItemsOf(BLOCK_TAGS['#logs']!);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 64 }),
        fc.dictionary(fc.constantFrom(...logs, 'dirt', 'stick'), fc.integer({ min: 0, max: 20 })),
        fc.array(fc.constantFrom(...logs), { minLength: 64, maxLength: 64 }),
        (count, before, kinds) => {
          const args = parse({ block: '#logs', count });
          const pre = observation({ inventory: before });
          const gained = (n: number) => {
            const after = { ...before };
            for (const kind of kinds.slice(0, n)) after[kind] = (after[kind] ?? 0) + 1;
            return observation({ inventory: after });
          };
          expect(judgeStep(collectBlock, pre, gained(count), args)).toEqual({ ok: true });
          const short = judgeStep(collectBlock, pre, gained(count - 1), args);
          expect(short.ok).toBe(false);
          // Something else grew instead (sticks, dirt): not a log, not done.
          const other = observation({
            inventory: { ...before, stick: (before.stick ?? 0) + count, dirt: (before.dirt ?? 0) + count },
          });
          expect(judgeStep(collectBlock, pre, other, args).ok).toBe(false);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('one kind asked, another kind gained, is not done', () => {
    const args = parse({ block: 'oak_log', count: 2 });
    const pre = observation({ inventory: {} });
    expect(judgeStep(collectBlock, pre, observation({ inventory: { birch_log: 2 } }), args)).toEqual({
      ok: false,
      unmet: ['the pack holds at least 2 of oak_log: it holds 0'],
    });
  });
});
