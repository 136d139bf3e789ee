import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { harness, plan } from '../../test/helpers/executor.js';

/** Where a cave can open: the cells under the bot's column and its four neighbours, below the grass. */
const voidCell = fc.record({
  x: fc.integer({ min: -1, max: 1 }),
  y: fc.integer({ min: -7, max: -2 }),
  z: fc.integer({ min: -1, max: 1 }),
  name: fc.constantFrom('air', 'cave_air', 'water'),
});
/**
 * Where a hit knocks the bot between the guard's judgment and the dig (SimWorld has no knock-back for the player; on
 * the embedded server a zombie's hit moves it about half a block): nowhere, or onto a neighbouring column.
 */
const shove = fc.constantFrom(null, { x: 1, z: 0 }, { x: -1, z: 0 }, { x: 0, z: 1 }, { x: 0, z: -1 });

describe('dig_in digs only where the ground under its hole is solid', () => {
  it('over columns with caves under them, a dig-in never ends with the bot more than its hole (3) below where it began', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(voidCell, { maxLength: 12 }), shove, async (voids, knock) => {
        const blocks = voids.map(({ name, ...position }) => ({ position, name }));
        const h = await harness({ inventory: { dirt: 1, wooden_shovel: 1 }, blocks });
        h.assembly.executor.events.on('event', (event) => {
          if (event.type === 'attempt.started' && knock) h.world.teleport({ ...knock, y: 0 });
        });
        const result = await h.run(plan({ stepId: 'dig', type: 'dig_in', args: {} }));
        expect(h.world.position().y).toBeGreaterThanOrEqual(-3);
        if (result.ok) expect(h.world.position()).toMatchObject({ x: 0.5, y: -3, z: 0.5 });
      }),
      { numRuns: 80 },
    );
  });

  it('refuses a hole over a one-block floor above a cave, naming the cell', async () => {
    const h = await harness({
      inventory: { dirt: 1, wooden_shovel: 1 },
      blocks: [{ position: { x: 0, y: -5, z: 0 }, name: 'air' }],
    });
    expect((await h.run(plan({ stepId: 'dig', type: 'dig_in', args: {} }))).steps[0]!.outcome).toMatchObject({
      ok: false,
      code: 'guard_failed',
      detail: 'air at (0, -5, 0): no solid ground under the hole to stand on',
    });
    expect(h.world.actuatorLog).toEqual([]);
  });

  it('judges the ground again where a hit knocked the bot before the dig: a cave under that column is refused', async () => {
    const h = await harness({
      inventory: { dirt: 1, wooden_shovel: 1 },
      blocks: [{ position: { x: 1, y: -4, z: 0 }, name: 'air' }],
    });
    h.assembly.executor.events.on('event', (event) => {
      if (event.type === 'attempt.started') h.world.teleport({ x: 1, y: 0, z: 0 });
    });
    const result = await h.run(plan({ stepId: 'dig', type: 'dig_in', args: {} }));
    const outcome = result.steps[0]!.outcome;
    expect(outcome).toMatchObject({ ok: false, code: 'guard_failed' });
    expect(!outcome.ok && outcome.detail).toContain(
      'dig_in: air at (1, -4, 0): no solid ground under the hole to stand on',
    );
    expect(h.world.position()).toMatchObject({ x: 1.5, y: 0, z: 0.5 });
  });
});
