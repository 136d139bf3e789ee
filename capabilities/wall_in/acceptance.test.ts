import { describe, expect, it } from 'vitest';
import { blockKey } from '../../src/index.js';
import { judgeStep, observation } from '../../src/testing/index.js';
import { wallCells } from './cells.js';
import wallIn from './index.js';

const args = wallIn.inputSchema.parse({});
/** After the wall: every wall cell around 0,0,0 named `name`, except `open` ones. */
const after = (name: string, open: number[] = []) =>
  observation({
    blocks: Object.fromEntries(
      wallCells({ x: 0, y: 0, z: 0 }).map((cell, i) => [blockKey(cell), open.includes(i) ? 'air' : name]),
    ),
  });

describe('wall_in', () => {
  it('takes only the block to build with', () => {
    expect(wallIn.inputSchema.parse({ block: 'dirt' })).toEqual({ block: 'dirt' });
    expect(wallIn.inputSchema.safeParse({ height: 3 }).success).toBe(false);
  });

  it('is met when every cell around the feet and the head holds a block and the bot stayed in its cell', () => {
    expect(judgeStep(wallIn, observation(), after('cobblestone'), args)).toEqual({ ok: true });
    expect(judgeStep(wallIn, observation(), after('short_grass'), args).ok).toBe(false);
    expect(judgeStep(wallIn, observation(), after('dirt', [5]), args)).toEqual({
      ok: false,
      unmet: [expect.stringMatching(/^the block at \(-1, 1, 0\) is anything and not air or .*: it holds air$/)],
    });
    const moved = { ...after('dirt'), position: { x: 3.5, y: 0, z: 0.5 } };
    expect(judgeStep(wallIn, observation(), moved, args).ok).toBe(false);
  });
});
