import { describe, expect, it } from 'vitest';
import { embeddedSuite } from '../../test/helpers/embedded.js';

const suite = embeddedSuite({ bot: { inventory: { dirt: 4, stone_axe: 1, iron_helmet: 1 } } });

const equip = (item: string, destination?: string) => ({
  stepId: `equip-${item}`,
  type: 'equip',
  args: { item, ...(destination ? { destination } : {}) },
});

describe('equip on the embedded server', () => {
  it('puts the axe in the main hand, then the helmet on: it leaves the inventory the server holds', async () => {
    const { result, bot } = await suite.run('knight', [equip('stone_axe'), equip('iron_helmet', 'head')]);
    expect(result.steps.map((step) => step.outcome)).toEqual([{ ok: true }, { ok: true }]);
    expect(bot.heldItem()).toBe('stone_axe');
    expect(suite.server.player('knight')!.inventory).toEqual({ dirt: 4, stone_axe: 1 });
  });

  it('refuses dirt on the head (guard_failed); the inventory is unchanged', async () => {
    const { result } = await suite.run('hatter', [equip('dirt', 'head')]);
    expect(result.steps[0]!.outcome).toMatchObject({ ok: false, code: 'guard_failed' });
    expect(suite.server.player('hatter')!.inventory).toEqual({ dirt: 4, stone_axe: 1, iron_helmet: 1 });
  });
});
