import { describe, expect, it } from 'vitest';
import { harness, plan } from '../helpers/executor.js';

/*
 * An attempt whose effect was made but whose end was lost (the connection dropped between the block breaking and its
 * confirmation, as a crash of the server can leave it): the retry's guard then finds its own effect ("already air").
 * The step is judged on the world's truth first and ends verified; it never redoes what holds, nor fails on it.
 */

describe('a retry that finds its own earlier attempt already made the effect', () => {
  it('ends verified rather than failing its guard', async () => {
    const h = await harness({ inventory: { stone_pickaxe: 1 }, heldItem: 'stone_pickaxe', ground: { radius: 10 } });
    h.world.setBlock({ x: 1, y: 0, z: 0 }, 'stone');
    const dig = h.world.dig.bind(h.world);
    let lost = 0;
    h.world.dig = async (...args) => {
      await dig(...args);
      if (lost++ === 0) throw new Error('the connection dropped before the dig was confirmed');
    };
    const result = await h.run(
      plan({ stepId: 'mine', type: 'dig_block', args: { position: { x: 1, y: 0, z: 0 }, block: 'stone' } }),
    );
    const mine = result.steps.find((s) => s.step.stepId === 'mine');
    expect(mine?.outcome, JSON.stringify(mine)).toEqual({ ok: true });
    expect(h.world.blockAt({ x: 1, y: 0, z: 0 })?.name).toBe('air');
    expect(lost).toBe(1);
  });
});
