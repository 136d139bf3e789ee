import { describe, expect, it, vi } from 'vitest';
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
    // The dig is confirmed by the server's block; the drop reaches the client in a packet of its own.
    const query = dispatchQueryOf(collectDrops, args);
    const pre = await vi.waitFor(
      async () => {
        const seen = await bot.observe(query);
        expect(seen.drops?.filter((d) => d.name === 'oak_log')).toHaveLength(2);
        return seen;
      },
      { timeout: 10_000, interval: 50 },
    );
    await bot.goto({ kind: 'block', x: 4, y: 5, z: -6 });
    // The server hands a drop over on one of its ticks once the bot stands by it, then tells the client it is gone.
    const half = await vi.waitFor(
      async () => {
        const seen = await bot.observe(query);
        expect([seen.inventory, seen.drops?.length]).toEqual([{ oak_log: 1 }, 1]);
        return seen;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(judgeStep(collectDrops, pre, half, args)).toMatchObject({
      ok: false,
      unmet: [
        'the pack holds at least 2 oak_log: it holds 1',
        expect.stringMatching(/^no dropped oak_log lies within 12 of \([^)]*\): 1 still there \(1 oak_log at \(-/),
      ],
    });
    await bot.goto({ kind: 'block', x: -4, y: 5, z: -6 });
    // Picked up on the server, and the client told the drop is gone: the step is judged on both.
    const judged = async () => judgeStep(collectDrops, pre, await bot.observe(query), args);
    await vi.waitFor(async () => expect(await judged()).toEqual({ ok: true }), { timeout: 10_000, interval: 50 });
  });
});
