import { describe, expect, it } from 'vitest';
import { EntityGrid } from '../../src/world/embedded/entity-grid.js';

const overworld = {};
const nether = {};
const at = (x: number, z: number, world: object = overworld) => ({ world, position: { x, z } });

describe('entity grid', () => {
  it('finds what was filed in the columns within a radius, and nothing in another world or farther', () => {
    const grid = new EntityGrid(0);
    const [near, edge, far, elsewhere] = [at(3, 3), at(-40, 20), at(200, 0), at(3, 3, nether)];
    for (const entity of [near, edge, far, elsewhere]) grid.place(entity);
    const found = new Set(grid.near(overworld, { x: 0, z: 0 }, 48));
    expect(found.has(near) && found.has(edge)).toBe(true);
    expect(found.has(far) || found.has(elsewhere)).toBe(false);
  });

  it('finds an entity that moved less than the slack since it was filed, and forgets a removed one', () => {
    const grid = new EntityGrid(2);
    const walker = at(15.5, 0);
    grid.place(walker);
    walker.position.x = -1.5;
    expect([...grid.near(overworld, { x: -20, z: 0 }, 18)]).toContain(walker);
    grid.place(walker);
    grid.remove(walker);
    expect([...grid.near(overworld, { x: 0, z: 0 }, 64)]).toEqual([]);
  });
});
