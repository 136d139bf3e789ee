import { describe, expect, it } from 'vitest';
import { embeddedSuite } from '../../test/helpers/embedded.js';

const suite = embeddedSuite({
  bot: { inventory: { wooden_axe: 1 } },
  blocks: [
    ...[0, 1, 2].map((dy) => ({ x: 4, y: 5 + dy, z: 3, block: 'oak_log' as const })),
    ...[0, 1].map((dy) => ({ x: -5, y: 5 + dy, z: -2, block: 'birch_log' as const })),
  ],
});

describe('collect_block on the embedded server', () => {
  it('gathers four logs of any kind from two trunks: they are in the inventory the server holds, and the trunks are gone', async () => {
    const { result } = await suite.run('lumberjack', [{ stepId: 'gather', type: 'collect_block', args: { block: '#logs', count: 4, radius: 16 } }]);
    expect(result.ok, JSON.stringify(result.steps.map((s) => s.outcome))).toBe(true);
    const inventory = suite.server.player('lumberjack')!.inventory;
    expect((inventory.oak_log ?? 0) + (inventory.birch_log ?? 0)).toBeGreaterThanOrEqual(4);
    expect(inventory.oak_log).toBe(3);
    for (const y of [5, 6, 7]) expect(await suite.server.blockAt({ x: 4, y, z: 3 })).toBe('air');
  });
});
