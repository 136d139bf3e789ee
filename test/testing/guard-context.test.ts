import { describe, expect, it } from 'vitest';
import craftItem from '../../capabilities/craft_item/index.js';
import sleep from '../../capabilities/sleep/index.js';
import storeItems from '../../capabilities/store_items/index.js';
import { guardContext, observation, worldFromObservation } from '../../src/testing/index.js';
import { WorldError } from '../../src/contracts/world.js';
import { match } from '../helpers/matchers.js';

describe('guardContext: a guard tested as a pure function of an observation', () => {
  it('craft_item names the missing ingredient, and the table it has once one is in the observed blocks', () => {
    const args = craftItem.inputSchema.parse({ item: 'stone_axe' });
    const bare = craftItem.guard(guardContext(observation({ inventory: { cobblestone: 3 } })), args);
    expect(bare).toMatchObject({ ok: false, missing: { predicate: 'has_item', detail: { item: 'stick', count: 2 } } });
    const noTable = craftItem.guard(guardContext(observation({ inventory: { cobblestone: 3, stick: 2 } })), args);
    expect(noTable).toMatchObject({
      ok: false,
      missing: { predicate: 'near_block', detail: { block: 'crafting_table' } },
    });
    const ready = craftItem.guard(
      guardContext(observation({ inventory: { cobblestone: 3, stick: 2 }, blocks: { '2,0,0': 'crafting_table' } })),
      args,
    );
    expect(ready).toEqual({ ok: true });
  });

  it('store_items and sleep read what the observation holds: a chest that is no chest, and the time of day', () => {
    const store = storeItems.inputSchema.parse({ item: 'dirt', count: 1, chest: { x: 1, y: 0, z: 0 } });
    expect(
      storeItems.guard(guardContext(observation({ inventory: { dirt: 1 }, containers: { '1,0,0': null } })), store),
    ).toMatchObject({ ok: false, reason: match.stringContaining('is no chest') });
    const night = sleep.inputSchema.parse({ bed: { x: 2, y: 0, z: 0 } });
    expect(
      sleep.guard(guardContext(observation({ timeOfDay: 7000, blocks: { '2,0,0': 'red_bed' } })), night),
    ).toMatchObject({ ok: false, reason: match.stringContaining('it is day') });
    expect(sleep.guard(guardContext(observation({ timeOfDay: 15000, blocks: { '2,0,0': 'red_bed' } })), night)).toEqual(
      { ok: true },
    );
  });

  it('the observed world answers reads and refuses every action', async () => {
    const world = worldFromObservation(
      observation({ blocks: { '3,0,0': 'stone', '9,0,0': 'stone', '1,0,0': 'dirt' } }),
    );
    expect(world.findBlocks({ names: ['stone'], maxDistance: 16, count: 5 })).toEqual([
      { x: 3, y: 0, z: 0 },
      { x: 9, y: 0, z: 0 },
    ]);
    expect(world.blockAt({ x: 5, y: 0, z: 0 })).toBeNull();
    await expect(world.dig({ x: 3, y: 0, z: 0 })).rejects.toBeInstanceOf(WorldError);
  });
});
