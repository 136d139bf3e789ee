import { describe, expect, it } from 'vitest';
import { harness, plan } from '../../test/helpers/executor.js';
import { match } from '../../test/helpers/matchers.js';

const sleep = (bed?: { x: number; y: number; z: number }) => ({
  stepId: 'sleep',
  type: 'sleep',
  args: bed ? { bed } : {},
});

describe('sleep runs end to end on SimWorld', () => {
  it('at night walks to the nearest bed and sleeps until sunrise', async () => {
    const h = await harness({ timeOfDay: 18_000, blocks: [{ position: { x: 9, y: 0, z: 2 }, name: 'red_bed' }] });
    const result = await h.run(plan(sleep()));
    expect(result.ok, JSON.stringify(result.steps.map((s) => s.outcome))).toBe(true);
    expect(h.world.timeOfDay()).toBeLessThan(1_000);
    expect(h.world.actuatorLog.map((e) => e.command)).toEqual(['goto', 'sleep']);
  });

  it('fails with the reason, without lying down: by day, with a zombie near, with no bed in sight', async () => {
    const bed = { x: 2, y: 0, z: 0 };
    const day = await harness({ timeOfDay: 6_000, blocks: [{ position: bed, name: 'white_bed' }] });
    expect((await day.run(plan(sleep()))).steps[0]!.outcome).toMatchObject({
      ok: false,
      code: 'guard_failed',
      detail: match.stringContaining('it is day (time 6000)'),
    });
    const haunted = await harness({ timeOfDay: 15_000, blocks: [{ position: bed, name: 'white_bed' }] });
    haunted.world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: 4.5, y: 0, z: 4.5 } });
    const monsters = await haunted.run(plan(sleep(bed)));
    expect(monsters.steps.find((s) => s.step.stepId === 'sleep')!.outcome).toMatchObject({ ok: false });
    expect(haunted.world.actuatorLog.some((e) => e.command === 'sleep' && e.outcome === 'ok')).toBe(false);
    const none = await harness({ timeOfDay: 15_000 });
    expect((await none.run(plan(sleep()))).steps[0]!.outcome).toMatchObject({
      ok: false,
      code: 'precondition_missing',
      detail: match.stringContaining('no bed in the open within 32 blocks'),
    });
  });

  it('with no bed in sight but one in the pack: places it beside the bot (both halves) and sleeps in it', async () => {
    const h = await harness({ timeOfDay: 15_000, inventory: { blue_bed: 1 } });
    const result = await h.run(plan(sleep()));
    expect(result.ok, JSON.stringify(result.steps.map((s) => s.outcome))).toBe(true);
    expect(h.world.actuatorLog.map((e) => e.command)).toEqual(['place', 'sleep']);
    expect(h.world.inventory().blue_bed ?? 0).toBe(0);
    expect(h.world.findBlocks({ names: ['blue_bed'], maxDistance: 4, count: 4 })).toHaveLength(2);
    expect(h.world.timeOfDay()).toBeLessThan(1_000);
  });
});
