import { describe, expect, it } from 'vitest';
import type { ProgressEvent } from '../../src/runtime/index.js';
import { cancelAfter, harness, plan } from '../../test/helpers/executor.js';
import { match } from '../../test/helpers/matchers.js';

const build = (args: Record<string, unknown>) => ({ stepId: 'build', type: 'build_structure', args });

describe('build_structure runs end to end on SimWorld', () => {
  it('seals the bot in a shelter_3x3 at the origin, reporting blocks placed of 25, verified', async () => {
    const progress: ProgressEvent[] = [];
    const h = await harness(
      { spawn: { x: 4, y: 0, z: 0 }, inventory: { dirt: 30 } },
      { hooks: { progress: (event) => progress.push(event) } },
    );
    const result = await h.run(plan(build({ origin: { x: 0, y: 0, z: 0 }, blueprint: 'shelter_3x3' })));
    expect(result).toMatchObject({ ok: true, steps: [{ outcome: { ok: true }, attempts: 1 }] });
    const commands = h.world.actuatorLog.map((entry) => entry.command);
    expect(commands).toEqual(['goto', ...Array<string>(25).fill('place')]);
    expect(h.world.position()).toMatchObject({ x: 0.5, y: 0, z: 0.5 });
    expect(h.world.inventory()).toEqual({ dirt: 5 });
    expect(progress.map((event) => [event.done, event.total])).toEqual(
      Array.from({ length: 26 }, (_, done) => [done, 25]),
    );
    // Sealed: the bot has nowhere to walk.
    for (const [x, z] of [
      [1, 0],
      [-1, 0],
      [0, 1],
      [0, -1],
    ])
      expect(h.world.blockAt({ x: x!, y: 0, z: z! })?.name).toBe('dirt');
    expect(h.world.blockAt({ x: 0, y: 2, z: 0 })?.name).toBe('dirt');
  });

  it('resumes a half-built structure: only the missing blocks are placed', async () => {
    const h = await harness({ inventory: { cobblestone: 17 } });
    h.world.fill({ x: -1, y: 0, z: -1 }, { x: 1, y: 0, z: 1 }, 'cobblestone').setBlock({ x: 0, y: 0, z: 0 }, 'air');
    const result = await h.run(
      plan(build({ origin: { x: 0, y: 0, z: 0 }, blueprint: 'shelter_3x3', material: 'cobblestone' })),
    );
    expect(result.ok).toBe(true);
    expect(h.world.actuatorLog.filter((entry) => entry.command === 'place')).toHaveLength(17);
    expect(h.world.inventory()).toEqual({});
  });

  it('steps out of a cell the blueprint needs before filling it', async () => {
    // A wall two high along z through the cell the bot stands in.
    const blocks = [-2, -1, 0, 1, 2].flatMap((dz) => [0, 1].map((dy) => ({ dx: 0, dy, dz, block: 'dirt' })));
    const h = await harness({ spawn: { x: 3, y: 0, z: 0 }, inventory: { dirt: 10 } });
    const result = await h.run(plan(build({ origin: { x: 3, y: 0, z: 0 }, blueprint: { blocks } })));
    expect(result.ok).toBe(true);
    expect(Math.floor(h.world.position().x)).not.toBe(3);
    expect(h.world.actuatorLog.map((entry) => entry.command).filter((c) => c === 'goto')).toHaveLength(1);
  });

  it('fails explicitly on a block with nothing to rest against, keeping what it placed', async () => {
    const blocks = [
      { dx: 2, dy: 0, dz: 0, block: 'dirt' },
      { dx: -2, dy: 3, dz: 0, block: 'dirt' },
    ];
    const h = await harness({ inventory: { dirt: 2 } });
    const result = await h.run(plan(build({ origin: { x: 0, y: 0, z: 0 }, blueprint: { blocks } })));
    expect(result.steps[0]!.outcome).toMatchObject({
      ok: false,
      code: 'guard_failed',
      detail: match.stringMatching(/no solid face/),
    });
    expect(h.world.blockAt({ x: 2, y: 0, z: 0 })?.name).toBe('dirt');
    expect(h.world.inventory()).toEqual({ dirt: 1 });
  });

  it('stops placing the moment the run is cancelled, leaving no actuator behind', async () => {
    const h = await harness({ inventory: { dirt: 25 } });
    const { result, cancelledAt } = await cancelAfter(
      h,
      [build({ origin: { x: 0, y: 0, z: 0 }, blueprint: 'shelter_3x3' })],
      300,
    );
    expect(result.steps[0]!.outcome).toMatchObject({ ok: false, code: 'aborted' });
    const placed = h.world.actuatorLog.filter((entry) => entry.outcome === 'ok').length;
    expect(placed).toBeGreaterThan(0);
    expect(placed).toBeLessThan(25);
    expect(h.world.actuatorLog.every((entry) => entry.startedAt <= cancelledAt)).toBe(true);
    expect(h.world.liveActuators()).toBe(0);
  });

  it('fails with precondition_missing when the inventory holds too few blocks', async () => {
    const h = await harness({ inventory: { dirt: 3 } });
    const result = await h.run(plan(build({ origin: { x: 0, y: 0, z: 0 }, blueprint: 'shelter_3x3' })));
    expect(result.steps[0]!.outcome).toMatchObject({
      ok: false,
      code: 'precondition_missing',
      detail: match.stringMatching(/needs 25 more dirt/),
    });
    expect(h.world.actuatorLog).toEqual([]);
  });
});
