import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judgeStep, observation } from '../../src/testing/index.js';
import followEntity from './index.js';

const parse = (args: unknown) => followEntity.inputSchema.parse(args);

describe('follow_entity arguments and acceptance', () => {
  it('defaults: 16 blocks to look, a range of 3, a minute; refuses under a second or over an hour', () => {
    expect(parse({ target: { name: 'cow' } })).toEqual({
      target: { name: 'cow' },
      within: 16,
      range: 3,
      forMs: 60_000,
    });
    expect(followEntity.inputSchema.safeParse({ target: { name: 'cow' }, forMs: 500 }).success).toBe(false);
    expect(followEntity.inputSchema.safeParse({ target: { name: 'cow' }, forMs: 3_600_001 }).success).toBe(false);
    expect(followEntity.durationFor!(parse({ target: { id: 3 }, forMs: 120_000 }))).toBe(130_000);
  });

  it('ok exactly when the entity is alive and within range + 1 of the bot at the end', () => {
    fc.assert(
      fc.property(fc.double({ min: -20, max: 20, noNaN: true }), fc.boolean(), (x, alive) => {
        const args = parse({ target: { id: 7 }, range: 3 });
        const cow = (at: number) => ({ id: 7, name: 'cow', position: { x: at, y: 0, z: 0 }, health: 10 });
        const pre = observation({ entities: [cow(1)] });
        const post = observation({ position: { x: 0, y: 0, z: 0 }, entities: alive ? [cow(x)] : [] });
        expect(judgeStep(followEntity, pre, post, args).ok).toBe(alive && Math.abs(x) <= 4);
      }),
    );
  });
});
