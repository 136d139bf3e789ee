import { describe, expect, it } from 'vitest';
import type { ProgressEvent } from '../../src/runtime/index.js';
import { embeddedSuite } from '../../test/helpers/embedded.js';

const suite = embeddedSuite({ bot: { inventory: { dirt: 30 } } });

const build = (args: Record<string, unknown>) => ({ stepId: 'build', type: 'build_structure', args });

describe('build_structure on the embedded server', () => {
  it('builds a shelter_3x3 around the origin, reporting progress: all 25 blocks are on the server', async () => {
    const origin = { x: 4, y: 5, z: 0 };
    const progress: ProgressEvent[] = [];
    const { result } = await suite.run('builder', [build({ origin, blueprint: 'shelter_3x3' })], {
      hooks: { progress: (event) => progress.push(event) },
    });
    expect(result.steps[0]!.outcome).toEqual({ ok: true });
    expect(progress.map((event) => [event.done, event.total])).toEqual(
      Array.from({ length: 26 }, (_, done) => [done, 25]),
    );
    const cells: { x: number; y: number; z: number }[] = [];
    for (let dx = -1; dx <= 1; dx++) {
      for (let dz = -1; dz <= 1; dz++) {
        if (dx !== 0 || dz !== 0)
          cells.push({ x: origin.x + dx, y: 5, z: origin.z + dz }, { x: origin.x + dx, y: 6, z: origin.z + dz });
        cells.push({ x: origin.x + dx, y: 7, z: origin.z + dz });
      }
    }
    expect(await Promise.all(cells.map((cell) => suite.server.blockAt(cell)))).toEqual(Array(25).fill('dirt'));
    expect(suite.server.player('builder')!.inventory.dirt).toBe(5);
  });
});
