import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Vec3Like } from '../../src/contracts/world.js';
import { SIDES } from '../../src/executor/safety/encounter.js';
import { harness, plan } from '../helpers/executor.js';

/*
 * A bot dug in on generated ground always comes out: the ground beside its hole differs side by side (a slope up one
 * or two, a ledge down one, a tree, a puddle), the hole may end a block deeper, and the pack may be emptied of blocks
 * while it sits there. The ground is dirt all through (a staircase can always be cut), so the walk's leave_shelter must
 * end verified on the ground outside; before, any hole with no standable cell exactly 3 up beside it ended every later
 * step "no ground outside".
 */

const SHAPES = ['flat', 'ledge', 'slope1', 'slope2', 'tree', 'puddle'] as const;
type Shape = (typeof SHAPES)[number];

/** The side of the hole a column belongs to: the axis it lies farther along (x on the diagonals). */
function sideOf(x: number, z: number): number {
  if (Math.abs(x) >= Math.abs(z)) return x > 0 ? 0 : 1;
  return z > 0 ? 2 : 3;
}

/** The blocks that shape the flat ground (surface at y -1, the bot at 0) around the hole's column at 0, 0. */
function groundAround(shapes: readonly Shape[]): { position: Vec3Like; name: string }[] {
  const blocks: { position: Vec3Like; name: string }[] = [];
  const put = (x: number, y: number, z: number, name: string) => blocks.push({ position: { x, y, z }, name });
  for (let x = -10; x <= 10; x++)
    for (let z = -10; z <= 10; z++) {
      if (x === 0 && z === 0) continue;
      const shape = shapes[sideOf(x, z)]!;
      if (shape === 'ledge') put(x, -1, z, 'air');
      if (shape === 'slope1' || shape === 'slope2') put(x, 0, z, 'dirt');
      if (shape === 'slope2') put(x, 1, z, 'dirt');
      if (shape === 'puddle' && Math.max(Math.abs(x), Math.abs(z)) <= 3) put(x, 0, z, 'water');
    }
  shapes.forEach((shape, i) => {
    if (shape !== 'tree') return;
    const [dx, dz] = SIDES[i]!;
    for (let y = 0; y <= 4; y++) put(dx, y, dz, 'oak_log');
    for (const [lx, lz] of SIDES) put(dx + lx, 4, dz + lz, 'oak_leaves');
  });
  return blocks;
}

const ground = fc.record({
  // The cover is placed against the ground beside the hole's top: one side at least keeps it.
  shapes: fc
    .tuple(...SIDES.map(() => fc.constantFrom(...SHAPES)))
    .filter((shapes) => shapes.some((s) => s !== 'ledge')),
  dirt: fc.integer({ min: 1, max: 4 }),
  emptied: fc.boolean(),
  // A block deeper than dig_in digs: the floor gave way under the bot (a hole shallower is a ledge all round).
  deeper: fc.boolean(),
});

describe('a bot dug in on any ground comes out of its hole', () => {
  it('leave_shelter ends verified on the ground outside, climbing or cutting stairs (property)', async () => {
    await fc.assert(
      fc.asyncProperty(ground, async ({ shapes, dirt, emptied, deeper }) => {
        const h = await harness({ inventory: { dirt, wooden_shovel: 1 }, blocks: groundAround(shapes) });
        h.assembly.executor.events.on('event', (event) => {
          if (event.type !== 'step.ended' || event.stepId !== 'hole') return;
          if (emptied) h.world.giveItem('dirt', -(h.world.inventory().dirt ?? 0));
          if (deeper) h.world.setBlock({ x: 0, y: -4, z: 0 }, 'air').teleport({ x: 0, y: -4, z: 0 });
        });
        const walk = { stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', x: 0, y: 5, z: 0 } } };
        const result = await h.run(plan({ stepId: 'hole', type: 'dig_in', args: {} }, walk), 300_000);
        expect(result.steps[0]).toMatchObject({ step: { stepId: 'hole' }, outcome: { ok: true } });
        const out = result.steps.find((s) => s.step.stepId === 'walk/safety-leave_shelter');
        expect(out?.outcome, JSON.stringify(result.steps.map((s) => s.outcome))).toEqual({ ok: true });
      }),
      { numRuns: 24, seed: 30 },
    );
  }, 120_000);
});
