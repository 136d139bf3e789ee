import { describe, expect, it } from 'vitest';
import { embeddedSuite } from '../../test/helpers/embedded.js';

const suite = embeddedSuite({
  bot: { inventory: { wooden_axe: 1 } },
  blocks: [
    ...[0, 1, 2].map((dy) => ({ x: 4, y: 5 + dy, z: 3, block: 'oak_log' as const })),
    ...[0, 1].map((dy) => ({ x: -5, y: 5 + dy, z: -2, block: 'birch_log' as const })),
    // A trunk four high, as the tech-tree scenarios stand them: by hand, from the ground.
    ...[0, 1, 2, 3].map((dy) => ({ x: 10, y: 5 + dy, z: -8, block: 'oak_log' as const })),
    // A log in the air, three cells above the ground: its drop spawns up there and falls for most of a second.
    { x: -16, y: 8, z: 14, block: 'spruce_log' as const },
  ],
});

describe('collect_block on the embedded server', () => {
  it('gathers four logs of any kind from two trunks: they are in the inventory the server holds, and the trunks are gone', async () => {
    const { result, events } = await suite.run('lumberjack', [
      { stepId: 'gather', type: 'collect_block', args: { block: '#logs', count: 4, radius: 16 } },
    ]);
    expect(result.ok, JSON.stringify(result.steps.map((s) => s.outcome))).toBe(true);
    // Every log's drop picked up as it was dug, the upper ones' too (their drops spawn in the air and fall): no
    // stall for the stuck detector to catch, no second attempt.
    expect(
      events.filter((e) => e.type === 'step.stuck' || e.type === 'step.retry').map((e) => JSON.stringify(e)),
    ).toEqual([]);
    const inventory = suite.server.player('lumberjack')!.inventory;
    expect((inventory.oak_log ?? 0) + (inventory.birch_log ?? 0)).toBeGreaterThanOrEqual(4);
    expect(inventory.oak_log).toBe(3);
    for (const y of [5, 6, 7]) expect(await suite.server.blockAt({ x: 4, y, z: 3 })).toBe('air');
  }, 60_000);

  it('gathers a whole trunk four high by hand, from the ground: each drop, falling from where its log was, is picked up', async () => {
    const { result, events } = await suite.run('woodcutter', [
      { stepId: 'trunk', type: 'collect_block', args: { block: 'oak_log', count: 4, radius: 24 } },
    ]);
    expect(result.ok, JSON.stringify(result.steps.map((s) => s.outcome))).toBe(true);
    expect(suite.server.player('woodcutter')!.inventory.oak_log).toBe(4);
    for (const y of [5, 6, 7, 8]) expect(await suite.server.blockAt({ x: 10, y, z: -8 })).toBe('air');
    expect(
      events.filter((e) => e.type === 'step.stuck' || e.type === 'step.retry').map((e) => JSON.stringify(e)),
    ).toEqual([]);
  }, 60_000);

  it('picks up a drop that spawned in the air where it lands, not where it was first seen (the server lets it fall; SimWorld drops it at rest)', async () => {
    const { result, events } = await suite.run('catcher', [
      { stepId: 'high-log', type: 'collect_block', args: { block: 'spruce_log', count: 1, radius: 32 } },
    ]);
    expect(result.ok, JSON.stringify(result.steps.map((s) => s.outcome))).toBe(true);
    expect(suite.server.player('catcher')!.inventory.spruce_log).toBe(1);
    expect(await suite.server.blockAt({ x: -16, y: 8, z: 14 })).toBe('air');
    expect(
      events.filter((e) => e.type === 'step.stuck' || e.type === 'step.retry').map((e) => JSON.stringify(e)),
    ).toEqual([]);
  }, 60_000);
});
