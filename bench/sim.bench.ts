import { ManualClock } from '../src/clock/index.js';
import type { NavigationGoal } from '../src/contracts/world.js';
import { BlockGrid, DEFAULT_GROUND } from '../src/world/sim/grid.js';
import { findPath } from '../src/world/sim/path-search.js';
import { SimWorld } from '../src/world/sim/index.js';
import { Terrain } from '../src/world/sim/terrain.js';
import type { BenchResult } from './types.js';

const BUDGET_MS = 400;
/** Written by every measured call, so the work cannot be optimised away. */
let sink = 0;

/** Mean time of `run` in µs, repeated until the budget is spent (after a short warm-up). */
function measureUs(run: () => void): number {
  for (let i = 0; i < 50; i++) run();
  let iterations = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < BUDGET_MS) {
    for (let i = 0; i < 100; i++) run();
    iterations += 100;
    elapsed = performance.now() - start;
  }
  return (elapsed * 1000) / iterations;
}

function terrain(wall: boolean): Terrain {
  const grid = new BlockGrid(DEFAULT_GROUND);
  // A wall across the straight line forces a detour of a few blocks around its end.
  if (wall) for (let z = -8; z <= 8; z++) for (let y = 0; y <= 2; y++) grid.set(16, y, z, 'stone');
  return new Terrain(grid);
}

export default async function simBench(): Promise<BenchResult[]> {
  const goal: NavigationGoal = { kind: 'block', x: 32, y: 0, z: 0 };
  const start = { x: 0, y: 0, z: 0 };
  const open = terrain(false);
  const walled = terrain(true);
  const unreachable = new Terrain(new BlockGrid({ ...DEFAULT_GROUND, radius: 16 }));
  const outside: NavigationGoal = { kind: 'block', x: 40, y: 0, z: 0 };

  const clock = new ManualClock();
  const world = SimWorld.create({ clock, inventory: { cobblestone: 8, oak_log: 4 } });
  const query = { blocks: Array.from({ length: 10 }, (_, i) => ({ x: i, y: 0, z: 0 })) };

  const walkStart = performance.now();
  const walk = world.goto(goal);
  await clock.advance(60_000);
  await walk;
  const walkMs = performance.now() - walkStart;

  return [
    {
      name: 'sim path search, 32 blocks open ground',
      value: measureUs(() => findPath(open, start, goal, 10_000)),
      unit: 'µs',
    },
    {
      name: 'sim path search, 32 blocks around a wall',
      value: measureUs(() => findPath(walled, start, goal, 10_000)),
      unit: 'µs',
    },
    {
      name: 'sim path search, unreachable on a 33x33 island',
      value: measureUs(() => findPath(unreachable, start, outside, 10_000)),
      unit: 'µs',
    },
    { name: 'sim goto 32 blocks end to end (virtual time, ManualClock)', value: walkMs, unit: 'ms' },
    { name: 'sim observe()', value: measureUs(() => void world.observe().then((o) => (sink += o.at))), unit: 'µs' },
    {
      name: 'sim observe() with 10 blocks',
      value: measureUs(() => void world.observe(query).then((o) => (sink += o.at))),
      unit: 'µs',
    },
    { name: 'sim position()', value: measureUs(() => (sink += world.position().x)) * 1000, unit: 'ns' },
  ];
}
