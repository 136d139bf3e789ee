import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import { parseScenario } from '../../src/world/scenario/index.js';
import { simWorldFromScenario } from '../../src/world/sim-scenario.js';
import { SEA_LEVEL, survivalTerrain } from '../../src/world/terrain/survival-terrain.js';

const seeds = fc.integer({ min: 0, max: 2 ** 31 - 1 });

/** Cells within `r` of the spawn holding `name` with a face open to air: what a bot can see and reach. */
function exposed(seed: number, name: string, r: number): number {
  const t = survivalTerrain(seed);
  const { x: sx, z: sz } = t.spawn;
  let n = 0;
  for (let x = sx - r; x <= sx + r; x++)
    for (let z = sz - r; z <= sz + r; z++)
      for (let y = 1; y <= 40; y++) {
        if (t.blockAt(x, y, z) !== name) continue;
        const open = [
          [1, 0, 0],
          [-1, 0, 0],
          [0, 1, 0],
          [0, -1, 0],
          [0, 0, 1],
          [0, 0, -1],
        ].some(([dx, dy, dz]) => t.blockAt(x + dx!, y + dy!, z + dz!) === 'air');
        if (open) n++;
      }
  return n;
}

describe('the generated survival terrain', () => {
  it('is a pure function of the seed: two terrains of one seed agree on every cell; another seed differs', () => {
    const a = survivalTerrain(7);
    const b = survivalTerrain(7);
    const c = survivalTerrain(8);
    let differs = 0;
    for (let x = -40; x <= 40; x += 3)
      for (let z = -40; z <= 40; z += 3)
        for (let y = 0; y <= 40; y++) {
          expect(b.blockAt(x, y, z)).toBe(a.blockAt(x, y, z));
          if (c.blockAt(x, y, z) !== a.blockAt(x, y, z)) differs++;
        }
    expect(differs).toBeGreaterThan(100);
  });

  it('for any seed: the bot spawns on dry ground with room to stand, bedrock below, and no tree in its way', () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        const t = survivalTerrain(seed);
        const { x, y, z } = t.spawn;
        expect(['grass_block', 'sand', 'dirt']).toContain(t.blockAt(x, y - 1, z));
        expect(t.blockAt(x, y, z)).toBe('air');
        expect(t.blockAt(x, y + 1, z)).toBe('air');
        expect(y - 1).toBeGreaterThan(SEA_LEVEL);
        expect(t.blockAt(x, 0, z)).toBe('bedrock');
      }),
      { numRuns: 200 },
    );
  });

  it('for any seed: hills, not a slab; trees, stone, and coal and iron ore in the open (a cave) within 32 blocks of spawn', () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        const t = survivalTerrain(seed);
        const heights = new Set<number>();
        for (let x = -32; x <= 32; x += 4)
          for (let z = -32; z <= 32; z += 4) heights.add(t.groundHeight(t.spawn.x + x, t.spawn.z + z));
        expect(heights.size, 'ground heights').toBeGreaterThanOrEqual(3);
        expect(exposed(seed, 'oak_log', 32), 'oak logs in the open').toBeGreaterThanOrEqual(8);
        expect(exposed(seed, 'stone', 32), 'stone in the open').toBeGreaterThanOrEqual(20);
        expect(exposed(seed, 'coal_ore', 32), 'coal ore in the open').toBeGreaterThanOrEqual(1);
        expect(exposed(seed, 'iron_ore', 32), 'iron ore in the open').toBeGreaterThanOrEqual(3);
      }),
      { numRuns: 20 },
    );
  });

  it('a survival scenario lays the same terrain into SimWorld, with its spawn on the ground', () => {
    const scenario = parseScenario({ name: 'survival', terrain: { kind: 'survival', seed: 7 } }, 'inline');
    const t = survivalTerrain(7);
    expect(scenario.spawn).toEqual(t.spawn);
    const world = simWorldFromScenario(scenario, { clock: new ManualClock() });
    for (let x = -20; x <= 20; x += 5)
      for (let z = -20; z <= 20; z += 5)
        for (let y = 0; y <= 36; y++) expect(world.blockAt({ x, y, z })?.name ?? 'air').toBe(t.blockAt(x, y, z));
    expect(world.position()).toMatchObject({ y: t.spawn.y });
    expect(world.findBlocks({ names: ['oak_log'], maxDistance: 32, count: 1, exposed: true })).toHaveLength(1);
  });

  it('for any seed: four passive mobs near spawn and two hostile ones beyond the flee radius of spawn and of the cave, each on open grass', () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        const t = survivalTerrain(seed);
        const passive = t.mobs.filter((m) => ['cow', 'sheep', 'pig', 'chicken'].includes(m.name));
        const hostile = t.mobs.filter((m) => ['zombie', 'skeleton'].includes(m.name));
        expect(passive.length + hostile.length).toBe(t.mobs.length);
        expect(passive.length).toBe(4);
        expect(hostile.length).toBe(2);
        for (const m of t.mobs) {
          expect(t.blockAt(m.x, m.y - 1, m.z)).toBe('grass_block');
          expect([t.blockAt(m.x, m.y, m.z), t.blockAt(m.x, m.y + 1, m.z)]).toEqual(['air', 'air']);
        }
        for (const m of hostile) {
          expect(Math.hypot(m.x - t.spawn.x, m.z - t.spawn.z)).toBeGreaterThanOrEqual(20);
          // Nothing carved (the cave and its way down) within 8 blocks of a hostile mob.
          for (let dx = -8; dx <= 8; dx++)
            for (let dz = -8; dz <= 8; dz++)
              for (let dy = -12; dy <= 3; dy++) {
                const [x, y, z] = [m.x + dx, m.y + dy, m.z + dz];
                if (y > 0 && y <= t.groundHeight(x, z) && t.blockAt(x, y, z) === 'air')
                  throw new Error(`seed ${seed}: cave at ${x},${y},${z} near the ${m.name}`);
              }
        }
      }),
      // 1082059992 spawns on a wide beach: no grass within 14 blocks, where only two of the four passive mobs found a place.
      { numRuns: 40, examples: [[1082059992]] },
    );
  });

  it("a survival scenario stands the terrain's mobs in SimWorld unless it names its own ([] for none)", () => {
    const t = survivalTerrain(7);
    const world = simWorldFromScenario(parseScenario({ name: 's', terrain: { kind: 'survival', seed: 7 } }, 'inline'), {
      clock: new ManualClock(),
    });
    const seen = world
      .entities()
      .map((e) => `${e.name}@${Math.floor(e.position.x)},${Math.floor(e.position.y)},${Math.floor(e.position.z)}`);
    expect(seen.sort()).toEqual(t.mobs.map((m) => `${m.name}@${m.x},${m.y},${m.z}`).sort());
    const none = simWorldFromScenario(
      parseScenario({ name: 's', terrain: { kind: 'survival', seed: 7 }, mobs: [] }, 'inline'),
      { clock: new ManualClock() },
    );
    expect(none.entities()).toEqual([]);
    expect(parseScenario({ name: 'flat' }, 'inline').mobs).toEqual([]);
  });

  it('refuses a bad terrain in a scenario, naming the field', () => {
    expect(() => parseScenario({ name: 's', terrain: { kind: 'survival', seed: -1 } }, 'inline')).toThrow(
      /terrain\.seed/,
    );
    expect(() => parseScenario({ name: 's', terrain: { kind: 'islands' } }, 'inline')).toThrow(/terrain/);
  });
});
