import { describe, expect, it } from 'vitest';
import { judgeStep, observation } from '../../src/testing/index.js';
import { wayOut } from './cells.js';
import leaveShelter from './index.js';

const args = (shelter: string, to: { x: number; y: number; z: number }) =>
  leaveShelter.inputSchema.parse({ shelter, to });
const standing = (x: number, y: number, z: number) => observation({ position: { x: x + 0.5, y, z: z + 0.5 } });

describe('leave_shelter', () => {
  it('takes the shelter and the ground cell outside, nothing else', () => {
    expect(leaveShelter.inputSchema.safeParse({ shelter: 'pillar_up' }).success).toBe(false);
    expect(leaveShelter.inputSchema.safeParse({ shelter: 'tent', to: { x: 0, y: 0, z: 0 } }).success).toBe(false);
  });

  it('is met only when the bot stands in the cell outside', () => {
    const out = args('wall_in', { x: 2, y: 0, z: 0 });
    expect(judgeStep(leaveShelter, standing(0, 0, 0), standing(2, 0, 0), out)).toEqual({ ok: true });
    expect(judgeStep(leaveShelter, standing(0, 0, 0), standing(0, 0, 0), out).ok).toBe(false);
    expect(judgeStep(leaveShelter, standing(0, 0, 0), standing(1, 0, 0), out).ok).toBe(false);
  });

  it('digs down a pillar, through a wall side at feet and head, out of a hole through its cover and up two', () => {
    const feet = { x: 0, y: 3, z: 0 };
    expect(wayOut(args('pillar_up', { x: 0, y: 0, z: 0 }), feet)).toEqual({
      dig: [2, 1, 0].map((y) => ({ x: 0, y, z: 0 })),
      rise: 0,
      steps: [],
      floors: [],
      misfit: null,
    });
    expect(wayOut(args('wall_in', { x: 0, y: 3, z: -2 }), feet).dig).toEqual([
      { x: 0, y: 3, z: -1 },
      { x: 0, y: 4, z: -1 },
    ]);
    expect(wayOut(args('dig_in', { x: 1, y: 6, z: 0 }), feet)).toEqual({
      dig: [{ x: 0, y: 5, z: 0 }],
      rise: 2,
      steps: [],
      floors: [{ x: 1, y: 6, z: 0 }],
      misfit: null,
    });
  });

  it('cuts a staircase out of a hole: each step a cell out and a block up, its body and the headroom before it', () => {
    const way = wayOut(args('dig_in', { x: 0, y: 5, z: -2 }), { x: 0, y: 3, z: 0 });
    expect(way.steps).toEqual([
      { x: 0, y: 4, z: -1 },
      { x: 0, y: 5, z: -2 },
    ]);
    expect(way.dig).toEqual([
      { x: 0, y: 5, z: 0 },
      { x: 0, y: 4, z: -1 },
      { x: 0, y: 5, z: -1 },
      { x: 0, y: 6, z: -1 },
      { x: 0, y: 5, z: -2 },
      { x: 0, y: 6, z: -2 },
    ]);
    expect(wayOut(args('dig_in', { x: 0, y: 6, z: -2 }), { x: 0, y: 3, z: 0 }).misfit).toMatch(/a staircase/);
  });
});
