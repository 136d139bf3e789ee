import { describe, expect, it } from 'vitest';
import type { ProgressEvent } from '../../src/runtime/index.js';
import { cancelAfter, harness, plan } from '../../test/helpers/executor.js';

const collect = (args: Record<string, unknown>) => ({ stepId: 'collect', type: 'collect_drops', args });
const drop = (name: string, x: number, z: number) => ({
  name: 'item',
  kind: 'item' as const,
  position: { x: x + 0.5, y: 0, z: z + 0.5 },
  item: { name, count: 1 },
});

describe('collect_drops runs end to end on SimWorld', () => {
  it('walks to each matching drop within the radius, reports progress, verified', async () => {
    const progress: ProgressEvent[] = [];
    const h = await harness({}, { hooks: { progress: (event) => progress.push(event) } });
    for (const spawned of [
      drop('oak_log', 6, 2),
      drop('oak_log', -5, 0),
      drop('cobblestone', 0, -6),
      drop('oak_log', 20, 0),
    ])
      h.world.spawnEntity(spawned);
    const result = await h.run(plan(collect({ item: 'oak_log', radius: 8 })));
    expect(result).toMatchObject({ ok: true, steps: [{ outcome: { ok: true }, attempts: 1 }] });
    expect(h.world.inventory()).toEqual({ oak_log: 2 });
    expect(progress.map(({ done, total }) => [done, total])).toEqual([
      [1, 1],
      [2, 2],
    ]);
    // The cobblestone and the log beyond the radius stay where they lie.
    expect(h.world.entities().map((e) => e.item?.name)).toEqual(['cobblestone', 'oak_log']);
  });

  it('walks up to a drop lying in the far corner of a diagonal cell, where a real server may scatter it: within reach of the drop, not only of its cell', async () => {
    // The bot stands in the middle of 0,0; the drop lies near the far corner of 1,1, 2.0 from its feet. The cell
    // beside the drop's satisfies "within a diagonal of its cell", yet no world hands a drop over from that far.
    const h = await harness();
    h.world.spawnEntity({ ...drop('oak_log', 1, 1), position: { x: 1.92, y: 0, z: 1.92 } });
    const result = await h.run(plan(collect({ item: 'oak_log', radius: 8 })));
    expect(result, JSON.stringify(result.steps.map((s) => s.outcome))).toMatchObject({
      ok: true,
      steps: [{ outcome: { ok: true }, attempts: 1 }],
    });
    expect(h.world.inventory()).toEqual({ oak_log: 1 });
  });

  it('picks up what a dig dropped under the rest of the trunk: dig_block then collect_drops', async () => {
    // The logs above the dug one stay put, so the drop's own cell has no headroom: the bot picks it up from beside it.
    const h = await harness({ blocks: [0, 1, 2, 3].map((y) => ({ position: { x: 7, y, z: 0 }, name: 'oak_log' })) });
    const result = await h.run(
      plan(
        { stepId: 'fell', type: 'dig_block', args: { position: { x: 7, y: 0, z: 0 }, block: 'oak_log' } },
        collect({ item: 'oak_log' }),
      ),
    );
    expect(result.ok).toBe(true);
    expect(h.world.inventory()).toEqual({ oak_log: 1 });
    expect(h.world.actuatorLog.map((entry) => [entry.command, entry.outcome])).toEqual([
      ['goto', 'ok'],
      ['dig', 'ok'],
      ['goto', 'ok'],
    ]);
  });

  it('stops walking the moment the run is cancelled, leaving no actuator behind', async () => {
    const h = await harness();
    for (const spawned of [drop('oak_log', 6, 0), drop('oak_log', -6, 0)]) h.world.spawnEntity(spawned);
    const { result, cancelledAt } = await cancelAfter(h, [collect({ radius: 8 })], 500);
    expect(result.steps[0]!.outcome).toMatchObject({ ok: false, code: 'aborted' });
    expect(h.world.actuatorLog.map((entry) => [entry.command, entry.outcome])).toEqual([['goto', 'aborted']]);
    expect(h.world.actuatorLog.every((entry) => entry.startedAt <= cancelledAt)).toBe(true);
    expect(h.world.liveActuators()).toBe(0);
  });

  it('fails explicitly when the only drop cannot be reached', async () => {
    const h = await harness({ ground: { radius: 4 } });
    h.world.setBlock({ x: 12, y: -1, z: 0 }, 'stone');
    h.world.spawnEntity(drop('oak_log', 12, 0));
    const result = await h.run(plan(collect({ radius: 16 })));
    expect(result.steps[0]!.outcome).toMatchObject({ ok: false, code: 'stuck.path' });
    expect(h.world.inventory()).toEqual({});
    expect(h.world.liveActuators()).toBe(0);
  });
});
