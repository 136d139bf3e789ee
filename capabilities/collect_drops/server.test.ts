import { describe, expect, it } from 'vitest';
import { embeddedSuite } from '../../test/helpers/embedded.js';
import { dispatchQueryOf, judgeStep } from '../../src/testing/index.js';
import collectDrops from './index.js';

const suite = embeddedSuite({
  blocks: [
    ...[0, 1, 2, 3].map((dy) => ({ x: 5, y: 5 + dy, z: 2, block: 'oak_log' as const })),
    { x: 4, y: 5, z: -6, block: 'oak_log' as const },
    { x: -4, y: 5, z: -6, block: 'oak_log' as const },
  ],
});

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

  it('two logs felled, one picked up, is not done: the drop left on the server is named', async () => {
    const bot = await suite.world.connectBot('half-gatherer');
    const args = collectDrops.inputSchema.parse({ item: 'oak_log', radius: 12 });
    await bot.goto({ kind: 'block', x: 0, y: 5, z: -6 });
    await bot.dig({ x: 4, y: 5, z: -6 });
    await bot.dig({ x: -4, y: 5, z: -6 });
    await new Promise((resolve) => setTimeout(resolve, 1500)); // let both drops land
    const query = dispatchQueryOf(collectDrops, args);
    const pre = await bot.observe(query);
    expect(pre.drops?.filter((d) => d.name === 'oak_log')).toHaveLength(2);
    await bot.goto({ kind: 'block', x: 4, y: 5, z: -6 });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const half = await bot.observe(query);
    expect(suite.server.player('half-gatherer')!.inventory).toEqual({ oak_log: 1 });
    expect(judgeStep(collectDrops, pre, half, args)).toMatchObject({
      ok: false,
      unmet: [
        'the pack holds at least 2 oak_log: it holds 1',
        expect.stringMatching(/^no dropped oak_log lies within 12 of \([^)]*\): 1 still there \(1 oak_log at \(-/),
      ],
    });
    await bot.goto({ kind: 'block', x: -4, y: 5, z: -6 });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(judgeStep(collectDrops, pre, await bot.observe(query), args)).toEqual({ ok: true });
  });
});
