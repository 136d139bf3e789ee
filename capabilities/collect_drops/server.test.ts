import { describe, expect, it } from 'vitest';
import { embeddedSuite } from '../../test/helpers/embedded.js';

const suite = embeddedSuite({ blocks: [0, 1, 2, 3].map((dy) => ({ x: 5, y: 5 + dy, z: 2, block: 'oak_log' as const })) });

describe('collect_drops on the embedded server', () => {
  it('picks up the log a dig dropped under the rest of the trunk: it lands in the inventory the server holds', async () => {
    const { result } = await suite.run('gatherer', [
      { stepId: 'fell', type: 'dig_block', args: { position: { x: 5, y: 5, z: 2 }, block: 'oak_log' } },
      { stepId: 'collect', type: 'collect_drops', args: { item: 'oak_log', radius: 8 } },
    ]);
    expect(result.steps.map((step) => step.outcome)).toEqual([{ ok: true }, { ok: true }]);
    expect(await suite.server.blockAt({ x: 5, y: 5, z: 2 })).toBe('air');
    expect(suite.server.player('gatherer')!.inventory).toEqual({ oak_log: 1 });
  });
});
