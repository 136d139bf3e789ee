import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judgeStep, observation } from '../../src/testing/index.js';
import attackEntity from './index.js';

const parse = (args: unknown) => attackEntity.inputSchema.parse(args);
const zombie = (id: number, x: number) => ({ id, name: 'zombie', position: { x, y: 0, z: 0 }, health: 20 });

describe('attack_entity arguments and acceptance', () => {
  it('takes an id or a kind, and a search radius defaulting to 16', () => {
    expect(parse({ target: { name: 'zombie' } })).toEqual({ target: { name: 'zombie' }, within: 16 });
    expect(attackEntity.inputSchema.safeParse({ target: { id: 1, name: 'zombie' } }).success).toBe(false);
    expect(attackEntity.inputSchema.safeParse({ target: {} }).success).toBe(false);
  });

  it('ok exactly when the mob chosen at dispatch (the nearest of its kind) is gone; another dying does not count', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 11, max: 30 }),
        fc.boolean(),
        fc.boolean(),
        (nearX, farX, nearGone, farGone) => {
          const args = parse({ target: { name: 'zombie' } });
          const pre = observation({ entities: [zombie(2, farX), zombie(1, nearX)] });
          const post = observation({
            entities: [...(nearGone ? [] : [zombie(1, nearX)]), ...(farGone ? [] : [zombie(2, farX)])],
          });
          const verdict = judgeStep(attackEntity, pre, post, args);
          expect(verdict.ok).toBe(nearGone);
          if (!verdict.ok)
            expect(verdict.unmet.join(' ')).toContain('the zombie (entity 1) is dead or gone: it is alive');
        },
      ),
    );
  });

  it('entities the world did not report never pass as dead', () => {
    const args = parse({ target: { id: 1 } });
    expect(judgeStep(attackEntity, observation({ entities: [zombie(1, 2)] }), observation({}), args).ok).toBe(false);
  });
});
