import { describe, expect, it } from 'vitest';
import { blockKey, ManualClock } from '../../src/index.js';
import { judgeStep, observation } from '../../src/testing/index.js';
import { SimWorld } from '../../src/world/sim/index.js';
import digIn from './index.js';

const args = digIn.inputSchema.parse({});
/** After digging in from 0,0,0: the bot's feet at y -3, the cell over them and the cover as named. */
const after = (head: string, cover: string, y = -3) =>
  observation({
    position: { x: 0.5, y, z: 0.5 },
    blocks: { [blockKey({ x: 0, y: -2, z: 0 })]: head, [blockKey({ x: 0, y: -1, z: 0 })]: cover },
  });

describe('dig_in', () => {
  it('takes only the block to close the hole with', () => {
    expect(digIn.inputSchema.parse({})).toEqual({});
    expect(digIn.inputSchema.safeParse({ depth: 2 }).success).toBe(false);
  });

  it('is met with the bot at the bottom, room for its head and the top closed', () => {
    expect(judgeStep(digIn, observation(), after('air', 'dirt'), args)).toEqual({ ok: true });
    expect(judgeStep(digIn, observation(), after('air', 'air'), args).ok).toBe(false);
    expect(judgeStep(digIn, observation(), after('dirt', 'dirt'), args).ok).toBe(false);
    expect(judgeStep(digIn, observation(), after('air', 'dirt', -2), args).ok).toBe(false);
  });

  it('guards on the ground below: three solid diggable blocks over a floor', async () => {
    const world = SimWorld.create({ clock: new ManualClock(), inventory: { dirt: 1 } });
    const guard = async () => digIn.guard({ world, observation: await world.observe() }, args);
    expect(await guard()).toEqual({ ok: true });
    world.setBlock({ x: 0, y: -4, z: 0 }, 'air');
    expect(await guard()).toEqual({
      ok: false,
      reason: 'air at (0, -4, 0): no solid ground under the hole to stand on',
    });
    world.setBlock({ x: 0, y: -2, z: 0 }, 'water');
    expect(await guard()).toMatchObject({
      reason: 'water at (0, -2, 0): the ground below is not three solid blocks to dig',
    });
  });
});
