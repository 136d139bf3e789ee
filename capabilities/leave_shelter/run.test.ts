import { describe, expect, it } from 'vitest';
import { harness, plan } from '../../test/helpers/executor.js';
import { match } from '../../test/helpers/matchers.js';

const leave = (args: Record<string, unknown>) => ({ stepId: 'out', type: 'leave_shelter', args });

describe('leave_shelter runs end to end on SimWorld', () => {
  it('digs its pillar down block by block, taking the blocks back, verified standing at its foot', async () => {
    const h = await harness({
      spawn: { x: 0, y: 3, z: 0 },
      blocks: [0, 1, 2].map((y) => ({ position: { x: 0, y, z: 0 }, name: 'dirt' })),
    });
    const result = await h.run(plan(leave({ shelter: 'pillar_up', to: { x: 0, y: 0, z: 0 } })));
    expect(result).toMatchObject({ ok: true, steps: [{ outcome: { ok: true } }] });
    expect(h.world.position()).toMatchObject({ x: 0.5, y: 0, z: 0.5 });
    expect(h.world.inventory()).toEqual({ dirt: 3 });
  });

  it('refuses a way out that does not fit the shelter, naming what it must be', async () => {
    const h = await harness({ inventory: { dirt: 4 } });
    const result = await h.run(plan(leave({ shelter: 'wall_in', to: { x: 1, y: 0, z: 1 } })));
    expect(result.steps[0]!.outcome).toMatchObject({
      ok: false,
      code: 'guard_failed',
      detail: match.stringMatching(/to \(1, 0, 1\): out of wall_in it must lie two cells out along x or z/),
    });
    expect(h.world.actuatorLog).toEqual([]);
  });
});
