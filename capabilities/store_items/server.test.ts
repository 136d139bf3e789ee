import { describe, expect, it } from 'vitest';
import { embeddedSuite } from '../../test/helpers/embedded.js';
import { match } from '../../test/helpers/matchers.js';

// Bots spawn at 0,5,0 on grass at y 4, each with this pack; two chests stand near spawn, a barrel further off.
const near = { x: 3, y: 5, z: 1 };
const far = { x: -6, y: 5, z: 2 };
const barrel = { x: 8, y: 5, z: -8 };
const suite = embeddedSuite({
  bot: { inventory: { cobblestone: 20, oak_log: 4 } },
  blocks: [
    { ...near, block: 'chest' },
    { ...far, block: 'chest' },
    { ...barrel, block: 'barrel' },
  ],
});

describe('store_items and take_items on the embedded server', () => {
  it('stores in the nearest chest and takes some back: the server holds the chest and the pack as asked', async () => {
    const { result } = await suite.run('keeper', [
      { stepId: 'store', type: 'store_items', args: { item: 'cobblestone', count: 12 } },
      { stepId: 'take', type: 'take_items', args: { item: 'cobblestone', count: 5 } },
    ]);
    expect(result.ok, JSON.stringify(result.steps.map((s) => s.outcome))).toBe(true);
    expect(suite.server.player('keeper')!.inventory).toEqual({ cobblestone: 13, oak_log: 4 });
    expect(await suite.server.containerAt(near)).toEqual({ cobblestone: 7 });
    expect(await suite.server.containerAt(far)).toEqual({});
  }, 60_000);

  it('walks to the barrel it names, and fails with nothing moved when the barrel holds too little', async () => {
    const { result } = await suite.run('carrier', [
      { stepId: 'store-logs', type: 'store_items', args: { item: 'oak_log', count: 4, chest: barrel } },
    ]);
    expect(result.ok, JSON.stringify(result.steps.map((s) => s.outcome))).toBe(true);
    expect(await suite.server.containerAt(barrel)).toEqual({ oak_log: 4 });
    const greedy = await suite.run('greedy', [
      { stepId: 'take-logs', type: 'take_items', args: { item: 'oak_log', count: 9, chest: barrel } },
    ]);
    expect(greedy.result.steps[0]!.outcome).toMatchObject({
      ok: false,
      code: 'precondition_missing',
      detail: match.stringContaining('holds 4 oak_log, 9 to take'),
    });
    expect(await suite.server.containerAt(barrel)).toEqual({ oak_log: 4 });
    expect(suite.server.player('greedy')!.inventory).toEqual({ cobblestone: 20, oak_log: 4 });
  }, 60_000);
});
