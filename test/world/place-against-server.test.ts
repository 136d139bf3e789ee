import { describe, expect, it } from 'vitest';
import { WorldError } from '../../src/contracts/world.js';
import { embeddedSuite } from '../helpers/embedded.js';

/**
 * A block is placed against a face the server builds on, never against a block a right click uses: the server
 * opens a crafting table clicked and places nothing (as the game does for a player not sneaking), and mineflayer
 * waited 5 s for a block that never came. Seen in the tech-tree bench: a furnace put on top of the table just placed.
 */
const suite = embeddedSuite({
  blocks: [
    { x: 2, y: 5, z: 0, block: 'crafting_table' },
    { x: 3, y: 6, z: 0, block: 'stone' },
    { x: -2, y: 5, z: 0, block: 'crafting_table' },
  ],
  bot: { inventory: { dirt: 4 } },
});

describe('placing on the embedded server beside a block a click uses', () => {
  it('places on top of a crafting table against the stone beside the cell, not the table', async () => {
    const bot = await suite.world.connectBot('builder');
    await bot.place({ x: 2, y: 6, z: 0 }, 'dirt');
    expect(await suite.server.blockAt({ x: 2, y: 6, z: 0 })).toBe('dirt');
  });

  it('with nothing but the table to place against, fails at once saying why', async () => {
    const bot = await suite.world.connectBot('builder2');
    const error = await bot.place({ x: -2, y: 6, z: 0 }, 'dirt').then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WorldError);
    expect((error as WorldError).code).toBe('precondition_missing');
    expect((error as WorldError).message).toContain('no solid block next to it to place against');
    expect(await suite.server.blockAt({ x: -2, y: 6, z: 0 })).toBe('air');
  });
});
