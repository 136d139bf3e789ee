import { describe, expect, it } from 'vitest';
import { harness, plan } from '../../test/helpers/executor.js';

const smelt = (item: string, count: number, fuel?: string) => ({
  stepId: `smelt-${item}`,
  type: 'smelt_item',
  args: { item, count, ...(fuel ? { fuel } : {}) },
});

describe('smelt_item runs end to end on SimWorld', () => {
  it('smelts raw iron with coal in a furnace nearby: the ingots are in the pack, the coal the rules burn is gone', async () => {
    const h = await harness({
      inventory: { raw_iron: 3, coal: 2 },
      blocks: [{ position: { x: 2, y: 0, z: 0 }, name: 'furnace' }],
    });
    const result = await h.run(plan(smelt('iron_ingot', 3)));
    expect(result.ok).toBe(true);
    expect(h.world.inventory()).toEqual({ iron_ingot: 3, coal: 1 });
    const started = h.events.find((e) => e.type === 'step.started');
    // The deadline grows with the count (durationFor): three items cook for 30 s.
    expect(started!.type === 'step.started' && started!.deadlineAt - started!.at).toBeGreaterThan(3 * 10_000);
  });

  it('from logs and cobblestone with no furnace and no fuel: crafts and places a furnace, burns planks, and smelts', async () => {
    const h = await harness({ inventory: { cobblestone: 12, oak_log: 4 } });
    const result = await h.run(plan(smelt('stone', 4)), 600_000);
    expect(result.ok, JSON.stringify(result.steps.map((s) => [s.step.stepId, s.outcome]))).toBe(true);
    expect(h.world.inventory().stone).toBe(4);
    const subgoals = h.events.flatMap((e) => (e.type === 'step.subgoal' ? [e.missing.detail] : []));
    expect(subgoals).toContainEqual({ block: 'furnace' });
    expect(h.world.findBlocks({ names: ['furnace'], maxDistance: 4, count: 1 })).toHaveLength(1);
  });

  it('with no fuel in the pack: gathers logs from a tree nearby, crafts planks and burns them', async () => {
    const tree = [0, 1, 2].map((y) => ({ position: { x: 3, y, z: 3 }, name: 'oak_log' }));
    const h = await harness({
      inventory: { cobblestone: 4 },
      blocks: [{ position: { x: 2, y: 0, z: 0 }, name: 'furnace' }, ...tree],
    });
    const result = await h.run(plan(smelt('stone', 4)), 600_000);
    expect(result.ok, JSON.stringify(result.steps.map((s) => [s.step.stepId, s.outcome]))).toBe(true);
    const subgoals = h.events.flatMap((e) => (e.type === 'step.subgoal' ? [e.missing.detail] : []));
    expect(subgoals[0]).toEqual({ item: 'oak_planks', count: 3 });
    expect(h.world.inventory().stone).toBe(4);
  });

  it('a smelt cut short goes on from the furnace: what it cooks and has cooked is not asked of the pack again', async () => {
    const furnace = { x: 2, y: 0, z: 0 };
    const h = await harness({ inventory: { raw_iron: 2, coal: 1 }, blocks: [{ position: furnace, name: 'furnace' }] });
    // The first attempt loads both and dies 15 s in (a crash, an abort): one ingot made, one cooking, no coal left.
    const abort = new AbortController();
    void h.world.smelt(furnace, 'raw_iron', 2, 'coal', { signal: abort.signal }).catch(() => undefined);
    await h.clock.advance(15_000);
    abort.abort();
    expect(h.world.inventory()).toEqual({});
    const result = await h.run(plan(smelt('iron_ingot', 2)));
    expect(result.ok, JSON.stringify(result.steps.map((s) => s.outcome))).toBe(true);
    expect(h.world.inventory()).toEqual({ iron_ingot: 2 });
    expect((await h.world.observe({ containers: [furnace] })).containers).toEqual({ '2,0,0': {} });
  });

  it('a long smelt is not cut by the watchdogs: 16 items cook for 160 s and the step ends ok', async () => {
    const h = await harness({
      inventory: { cobblestone: 16, coal: 2 },
      blocks: [{ position: { x: 2, y: 0, z: 0 }, name: 'furnace' }],
    });
    const result = await h.run(plan(smelt('stone', 16, 'coal')), 600_000);
    expect(result.ok, JSON.stringify(result.steps.map((s) => s.outcome))).toBe(true);
    expect(h.world.inventory()).toEqual({ stone: 16 });
  });

  it('fails with a reason for what no furnace makes, and for a fuel that is not one, with nothing spent', async () => {
    const h = await harness({
      inventory: { raw_iron: 3, dirt: 4 },
      blocks: [{ position: { x: 2, y: 0, z: 0 }, name: 'furnace' }],
    });
    const diamond = await h.run(plan(smelt('diamond', 1)));
    expect(diamond.ok).toBe(false);
    expect(diamond.steps[0]!.outcome).toMatchObject({ ok: false, code: 'guard_failed' });
    expect(JSON.stringify(diamond.steps[0]!.outcome)).toContain('nothing smelts into diamond');
    expect(h.world.inventory()).toEqual({ raw_iron: 3, dirt: 4 });
  });
});
