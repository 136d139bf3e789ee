import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { embeddedSuite } from '../helpers/embedded.js';

// One stone in the open on the grass, one buried in the dirt under it, one iron ore sealed in stone.
const blocks = [
  { x: 3, y: 5, z: 3, block: 'stone' },
  { x: -3, y: 2, z: -3, block: 'stone' },
  { x: 6, y: 2, z: 0, block: 'iron_ore' },
];
const suite = embeddedSuite({ blocks });
const query = (names: string[], exposed: boolean) => ({ names, maxDistance: 16, count: 8, exposed });

describe('findBlocks({ exposed }) leaves out what only tunnelling reaches', () => {
  it('SimWorld: the stone under the dirt and the buried ore are not in the open; the stone on the grass is', () => {
    const world = SimWorld.create({
      clock: new ManualClock(),
      blocks: blocks.map(({ x, y, z, block }) => ({ position: { x, y: y - 5, z }, name: block })),
    });
    expect(world.findBlocks(query(['stone'], true))).toEqual([{ x: 3, y: 0, z: 3 }]);
    expect(world.findBlocks(query(['iron_ore'], true))).toEqual([]);
    // Without it, the nearest stone is the ground's own, under the bot's feet.
    expect(world.findBlocks(query(['stone'], false)).length).toBe(8);
    expect(world.findBlocks(query(['iron_ore'], false))).toEqual([{ x: 6, y: -3, z: 0 }]);
  });

  it('the embedded server, read by a real bot: the same', async () => {
    const bot = await suite.world.connectBot('finder');
    expect(bot.findBlocks(query(['stone'], true))).toEqual([{ x: 3, y: 5, z: 3 }]);
    expect(bot.findBlocks(query(['iron_ore'], true))).toEqual([]);
    expect(bot.findBlocks(query(['stone'], false))).toEqual(
      expect.arrayContaining([
        { x: 3, y: 5, z: 3 },
        { x: -3, y: 2, z: -3 },
      ]),
    );
    expect(bot.findBlocks(query(['iron_ore'], false))).toEqual([{ x: 6, y: 2, z: 0 }]);
  });
});
