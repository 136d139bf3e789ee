import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import { SimWorld, settle } from '../../src/world/sim/index.js';
import { spotBeside } from './spot.js';

// Worlds of scattered blocks in the void around a bot standing on one block: ledges, pillars, overhangs.
const cell = fc.record({ x: fc.integer({ min: -3, max: 3 }), y: fc.integer({ min: -2, max: 2 }), z: fc.integer({ min: -3, max: 3 }) });
const worlds = fc.array(cell, { maxLength: 40 });

describe('a spot to place a table or furnace near the bot', () => {
  it('is always one the world lets the bot place on (open, within reach, not its own cells, something to place against); none only when there is no such cell', async () => {
    await fc.assert(
      fc.asyncProperty(worlds, async (blocks) => {
        const clock = new ManualClock();
        const world = SimWorld.create({ clock, ground: null, spawn: { x: 0.5, y: 0, z: 0.5 }, inventory: { crafting_table: 1 } });
        world.setBlock({ x: 0, y: -1, z: 0 }, 'stone');
        for (const b of blocks) if (!(b.x === 0 && b.z === 0 && (b.y === 0 || b.y === 1))) world.setBlock(b, 'stone');
        const spot = spotBeside(world, world.position());
        if (spot) {
          expect((await settle(clock, world.place(spot, 'crafting_table'))).state, JSON.stringify(spot)).toBe('ok');
          return;
        }
        // None found: then no cell around is both open and beside a solid block within reach.
        for (let x = -2; x <= 2; x++)
          for (let z = -2; z <= 2; z++)
            for (const y of [-1, 0, 1]) {
              if (x === 0 && z === 0 && (y === 0 || y === 1)) continue;
              const placed = await settle(clock, world.place({ x, y, z }, 'crafting_table'));
              expect(placed.state, `${x},${y},${z}`).not.toBe('ok');
            }
      }),
      { numRuns: 150 },
    );
  });
});
