import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import { SimWorld, settle } from '../../src/world/sim/index.js';
import { spotBeside } from '../../src/kit/spot.js';

// Worlds of scattered blocks in the void around a bot standing on one block: ledges, pillars, overhangs.
const cell = fc.record({
  x: fc.integer({ min: -3, max: 3 }),
  y: fc.integer({ min: -2, max: 2 }),
  z: fc.integer({ min: -3, max: 3 }),
});
const worlds = fc.array(cell, { maxLength: 40 });

describe('a spot to place a table or furnace near the bot', () => {
  it('is always one the world lets the bot place on (open, within reach, not its own cells, something to place against); none only when there is no such cell', async () => {
    await fc.assert(
      fc.asyncProperty(
        worlds,
        fc.double({ min: 0.05, max: 0.95, noNaN: true }),
        fc.double({ min: 0.05, max: 0.95, noNaN: true }),
        fc.boolean(),
        async (blocks, fx, fz, floor) => {
          const clock = new ManualClock();
          const world = SimWorld.create({
            clock,
            ground: null,
            spawn: { x: 0.5, y: 0, z: 0.5 },
            inventory: { crafting_table: 1 },
          });
          // Where in its cell the bot stands, as a real server reports it (SimWorld keeps it at the centre).
          const at = { x: fx, y: 0, z: fz };
          world.setBlock({ x: 0, y: -1, z: 0 }, 'stone');
          if (floor) world.fill({ x: -3, y: -1, z: -3 }, { x: 3, y: -1, z: 3 }, 'stone');
          for (const b of blocks) if (!(b.x === 0 && b.z === 0 && (b.y === 0 || b.y === 1))) world.setBlock(b, 'stone');
          const spot = spotBeside(world, at);
          if (spot) {
            // Clear of the body as a server measures it (0.6 wide), wherever in its cell the bot stands.
            const { x, z } = at;
            const touches =
              spot.x < x + 0.3 &&
              spot.x + 1 > x - 0.3 &&
              spot.z < z + 0.3 &&
              spot.z + 1 > z - 0.3 &&
              spot.y < 1.8 &&
              spot.y + 1 > 0;
            expect(touches, `${JSON.stringify(spot)} from ${x},${z}`).toBe(false);
            expect((await settle(clock, world.place(spot, 'crafting_table'))).state, JSON.stringify(spot)).toBe('ok');
            return;
          }
          // None found: then no cell around, clear of the body, is both open and beside a solid block within reach.
          for (let x = -2; x <= 2; x++)
            for (let z = -2; z <= 2; z++)
              for (const y of [-1, 0, 1]) {
                const { x: bx, z: bz } = at;
                if (x < bx + 0.3 && x + 1 > bx - 0.3 && z < bz + 0.3 && z + 1 > bz - 0.3 && y < 1.8 && y + 1 > 0)
                  continue;
                const placed = await settle(clock, world.place({ x, y, z }, 'crafting_table'));
                expect(placed.state, `${x},${y},${z}`).not.toBe('ok');
              }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('does not stand a block on a crafting table, which a server opens when clicked, while there is ground further off', () => {
    const world = SimWorld.create({ clock: new ManualClock(), spawn: { x: 0.5, y: 0, z: 0.5 } });
    // Stone round the bot up to three steps off, two high, but for its own cells, the table beside it and the cell above.
    for (let x = -3; x <= 3; x++)
      for (let z = -3; z <= 3; z++)
        if (Math.abs(x) + Math.abs(z) <= 3 && (x !== 0 || z !== 0)) {
          world.setBlock({ x, y: 0, z }, 'stone');
          world.setBlock({ x, y: 1, z }, 'stone');
        }
    world.setBlock({ x: 1, y: 0, z: 0 }, 'crafting_table');
    world.setBlock({ x: 1, y: 1, z: 0 }, 'air');
    const spot = spotBeside(world, world.position());
    expect(spot).not.toBeNull();
    expect(spot).not.toEqual({ x: 1, y: 1, z: 0 });
    expect(world.blockAt({ ...spot!, y: spot!.y - 1 })?.name).not.toBe('crafting_table');
  });
});
