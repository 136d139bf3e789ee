import { describe, expect, it } from 'vitest';
import { embeddedSuite } from '../../test/helpers/embedded.js';
import { match } from '../../test/helpers/matchers.js';

// Bots spawn at 0,5,0 on grass at y 4; every bot has this pack.
const suite = embeddedSuite({ bot: { inventory: { raw_iron: 2, cobblestone: 8, oak_log: 2 } } });

const smelt = (item: string, count: number, fuel?: string) => ({
  stepId: `smelt-${item}`,
  type: 'smelt_item',
  args: { item, count, ...(fuel ? { fuel } : {}) },
});

describe('smelt_item on the embedded server', () => {
  it('with no furnace and no fuel but logs and cobblestone: crafts planks, a table and a furnace, places it, and smelts iron; the ingots are in the pack the server holds', async () => {
    const { result, events } = await suite.run('ironworker', [smelt('iron_ingot', 2)]);
    expect(result.ok, JSON.stringify(result.steps.map((s) => [s.step.stepId, s.outcome]))).toBe(true);
    const subgoals = events.flatMap((e) => (e.type === 'step.subgoal' ? [e.missing.detail] : []));
    expect(subgoals).toContainEqual({ block: 'furnace' });
    const pack = suite.server.player('ironworker')!.inventory;
    expect(pack.iron_ingot).toBe(2);
    expect(pack.raw_iron).toBeUndefined();
    expect(pack.cobblestone).toBeUndefined();
  }, 120_000);

  it('fails explicitly when the pack holds too little of the input, with nothing spent', async () => {
    const { result } = await suite.run('short', [smelt('iron_ingot', 5)]);
    expect(result.ok).toBe(false);
    expect(result.steps[0]!.outcome).toMatchObject({
      ok: false,
      code: 'precondition_missing',
      detail: match.stringContaining('raw_iron'),
    });
    expect(suite.server.player('short')!.inventory).toMatchObject({ raw_iron: 2, cobblestone: 8 });
  }, 60_000);
});
