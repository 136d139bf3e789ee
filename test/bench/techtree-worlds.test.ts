import { describe, expect, it } from 'vitest';
import { chosenWorlds } from '../../bench/techtree.bench.js';

describe('techtree bench: the worlds it runs', () => {
  it('every world in SimWorld and the first --server-seeds on the server; --worlds alone picks them in both', () => {
    expect(chosenWorlds({})).toEqual({ sim: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], server: [1, 2, 3] });
    expect(chosenWorlds({ serverSeeds: 0 }).server).toEqual([]);
    expect(chosenWorlds({ worlds: [3, 10] })).toEqual({ sim: [3, 10], server: [3, 10] });
    expect(chosenWorlds({ worlds: [10], serverSeeds: 0 })).toEqual({ sim: [10], server: [] });
  });
});
