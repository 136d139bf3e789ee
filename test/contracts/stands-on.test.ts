import fc from 'fast-check';
import minecraftData from 'minecraft-data';
import { describe, expect, it } from 'vitest';
import { type Expectation, unmetExpectation } from '../../src/contracts/expectation.js';
import { feetCell, standingCell, standsOn } from '../../src/contracts/stands-on.js';
import { observation } from '../../src/testing/index.js';
import { MINECRAFT_VERSION } from '../../src/world/recipes.js';
import { collisionHeight, collisionTops, groundUnder } from '../../src/world/stands-on.js';

const data = minecraftData(MINECRAFT_VERSION);
const cell = fc.record({
  x: fc.integer({ min: -1000, max: 1000 }),
  y: fc.integer({ min: -60, max: 300 }),
  z: fc.integer({ min: -1000, max: 1000 }),
});
/** Every state of every block whose collision top lies inside its cell (snow by its layers, slabs by their half...). */
const partialStates = data.blocksArray.flatMap((block) =>
  Array.from({ length: block.maxStateId - block.minStateId + 1 }, (_, offset) => ({
    name: block.name,
    offset,
    top: collisionHeight(block.name, offset),
  })).filter(({ top }) => top > 0 && top < 1),
);
const onBlock = (at: { x: number; y: number; z: number }, top: number) => ({
  x: at.x + 0.5,
  y: at.y + top,
  z: at.z + 0.5,
});
const standOn = (goal: { x: number; y: number; z: number }): Expectation => ({
  kind: 'position',
  goal: { kind: 'block', ...goal },
});

describe('"the bot stands on cell C": one rule, from the blocks\' real collision heights', () => {
  it('reads the heights the issue names from minecraft-data: farmland and dirt paths 15/16, soul sand 7/8, a bottom slab 1/2, a chest 7/8, a bed 9/16, snow by its layers, a carpet 1/16', () => {
    expect(collisionHeight('farmland')).toBe(15 / 16);
    expect(collisionHeight('dirt_path')).toBe(15 / 16);
    expect(collisionHeight('soul_sand')).toBe(7 / 8);
    expect(collisionHeight('oak_slab')).toBe(1 / 2);
    expect(collisionHeight('chest')).toBe(7 / 8);
    expect(collisionHeight('red_bed')).toBe(9 / 16);
    expect(collisionHeight('white_carpet')).toBe(1 / 16);
    const snow = data.blocksByName.snow!;
    const layers = Array.from({ length: 8 }, (_, i) => collisionHeight('snow', i));
    expect(layers).toEqual([0, 1 / 8, 2 / 8, 3 / 8, 4 / 8, 5 / 8, 6 / 8, 7 / 8]);
    expect(snow.maxStateId - snow.minStateId + 1).toBe(8);
    // A top slab stands at the top of its cell: 1, not 1/2 (its states differ by half).
    const slab = data.blocksByName.oak_slab!;
    const tops = new Set(
      Array.from({ length: slab.maxStateId - slab.minStateId + 1 }, (_, i) => collisionHeight('oak_slab', i)),
    );
    expect([...tops].sort()).toEqual([0.5, 1]);
  });

  it('property: a bot resting on any partial-height block state stands in the cell above it (a carpet: in its own cell), and nowhere else', () => {
    fc.assert(
      fc.property(fc.constantFrom(...partialStates), cell, ({ name, offset, top }, at) => {
        const feet = onBlock(at, top);
        const ground = groundUnder(feet, (c) =>
          c.y === at.y && c.x === at.x && c.z === at.z ? collisionTops(name, offset) : [],
        );
        expect(ground).toBe(feet.y);
        const footing = { onGround: true, ground };
        const standing = top <= 1 / 16 ? at : { ...at, y: at.y + 1 };
        expect(standingCell(feet, footing)).toEqual({ cell: standing });
        expect(standsOn(feet, footing, standing)).toBeNull();
        expect(standsOn(feet, footing, { ...standing, y: standing.y + 1 })).not.toBeNull();
        expect(unmetExpectation(standOn(standing), observation({ position: feet, footing }))).toBeNull();
      }),
      { numRuns: 2000 },
    );
  });

  it('property: a bot mid-jump over its target, or passing through the cell, is never verified as standing on it', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...partialStates),
        cell,
        fc.double({ min: 0.01, max: 1.25, noNaN: true }),
        fc.boolean(),
        ({ top }, at, rise, physicsSaysGround) => {
          const ground = at.y + top;
          const feet = { ...onBlock(at, top), y: ground + rise };
          const target = feetCell({ ...feet, y: ground });
          // In the air by the physics, or feet above the ground however the physics reads: neither stands.
          const footing = { onGround: physicsSaysGround, ground };
          const unmet = unmetExpectation(standOn(target), observation({ position: feet, footing }));
          expect(unmet).not.toBeNull();
          expect(unmet).toMatch(physicsSaysGround ? /do not rest on the ground/ : /it is airborne/);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("the issue's journal: feet at 5.96 above farmland at 4 (airborne) is not on cell 5; at 4.9375 on the ground it is", () => {
    const goal = standOn({ x: 4, y: 5, z: 0 });
    const midJump = observation({
      position: { x: 4.5, y: 5.96, z: 0.5 },
      footing: { onGround: false, ground: 4.9375 },
    });
    expect(unmetExpectation(goal, midJump)).toBe('the bot stands on (4, 5, 0): it is airborne (feet at y 5.96)');
    const landed = observation({
      position: { x: 4.2, y: 4.9375, z: 0.5 },
      footing: { onGround: true, ground: 4.9375 },
    });
    expect(unmetExpectation(goal, landed)).toBeNull();
  });

  it('error texts give heights exactly enough to tell farmland (4.9375) from soul sand (4.875)', () => {
    const onSoulSand = { x: 4.5, y: 4.875, z: 0.5 };
    const hovering = standsOn(onSoulSand, { onGround: true, ground: 4.9375 }, { x: 4, y: 5, z: 0 });
    expect(hovering).toBe('its feet at y 4.875 do not rest on the ground below them, whose top is at y 4.9375');
    const elsewhere = standsOn(onSoulSand, { onGround: true, ground: 4.875 }, { x: 4, y: 6, z: 0 });
    expect(elsewhere).toBe('it stands on 4,5,0 (feet at y 4.875)');
  });

  it('an observation without the footing never verifies a position', () => {
    const { footing: _omitted, ...bare } = observation({ position: { x: 0.5, y: 5, z: 0.5 } });
    expect(unmetExpectation(standOn({ x: 0, y: 5, z: 0 }), bare)).toBe(
      'the bot stands on (0, 5, 0): its footing was not observed',
    );
  });
});
