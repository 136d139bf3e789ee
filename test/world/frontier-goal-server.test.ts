import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { embeddedSuite } from '../helpers/embedded.js';

/*
 * Walks past the server's view distance (4 chunks, the embedded server's default) from the spawn at 0,5,0: the goal's
 * column is not loaded when the walk starts. pathfinder's A* is counted as the fleet bench's path tally counts it, by
 * the nodes its searches expand. Searching only to the loaded world's edge toward the goal (frontier-goal.ts), such a
 * walk expanded 7 to 15 nodes a block; searching all the loaded world for a goal it cannot hold, about 100 a block.
 */
const suite = embeddedSuite({});

/** The bound on the nodes expanded for each block of the walk's straight line. */
const NODES_PER_BLOCK = 30;

const AStar = createRequire(import.meta.url)('mineflayer-pathfinder/lib/astar') as {
  prototype: { compute: (this: { closedDataSet: Set<string> }) => unknown };
};

/** The nodes every A* search expands while `run` runs. */
async function nodesExpanded(run: () => Promise<unknown>): Promise<number> {
  const compute = AStar.prototype.compute;
  const counted = new WeakMap<object, number>();
  let nodes = 0;
  AStar.prototype.compute = function countingNodes() {
    const result = compute.call(this);
    nodes += this.closedDataSet.size - (counted.get(this) ?? 0);
    counted.set(this, this.closedDataSet.size);
    return result;
  };
  try {
    await run();
    return nodes;
  } finally {
    AStar.prototype.compute = compute;
  }
}

describe('a walk to a goal beyond the loaded chunks (embedded server)', () => {
  it.each([
    { name: 'north', x: -14, z: -75 },
    { name: 'south-east', x: 50, z: 60 },
  ])(
    'reaches it $name, searching toward it and not the whole loaded world',
    async ({ name, x, z }) => {
      let ok = false;
      const nodes = await nodesExpanded(async () => {
        const { result } = await suite.run(`far-${name}`, [
          { stepId: 'far', type: 'navigate', args: { target: { kind: 'block', x, y: 5, z } } },
        ]);
        ok = result.steps[0]!.outcome.ok;
      });
      expect(ok).toBe(true);
      const at = suite.server.player(`far-${name}`)!.position;
      expect([Math.floor(at.x), Math.floor(at.z)]).toEqual([x, z]);
      expect(nodes).toBeLessThan(NODES_PER_BLOCK * Math.hypot(x, z));
    },
    120_000,
  );
});
