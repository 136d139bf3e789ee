import type { Clock } from '../contracts/clock.js';
import { SimWorld } from '../world/sim/index.js';

/*
 * Stuck cases where the fixed ladder fails or wastes real time (issue 33 §4), generated in SimWorld for the branch
 * tests and `npm run bench -- foresight`. Each is a world and the one step to run in it.
 */

export interface HardCase {
  name: string;
  description: string;
  world: SimWorld;
  step: { type: string; args: Record<string, unknown> };
}

const ISLAND_RADIUS = 12;
const walkTo = (x: number, y: number, z: number) => ({
  type: 'navigate',
  args: { target: { kind: 'block', x, y, z } },
});

function island(clock: Clock, inventory: Record<string, number> = {}): SimWorld {
  return SimWorld.create({
    clock,
    seed: 1,
    ground: { radius: ISLAND_RADIUS },
    unbreakable: ['obsidian'],
    inventory,
  });
}

/** A trench two wide and three deep all round the bot: no walk crosses it, a two-block bridge does. */
export function moat(clock: Clock): HardCase {
  const world = island(clock, { cobblestone: 16 });
  world.fill({ x: -3, y: -4, z: -3 }, { x: 3, y: -4, z: 3 }, 'obsidian');
  for (let x = -3; x <= 3; x++)
    for (let z = -3; z <= 3; z++)
      if (Math.max(Math.abs(x), Math.abs(z)) >= 2) world.fill({ x, y: -3, z }, { x, y: -1, z }, 'air');
  return {
    name: 'moat',
    description: 'a trench 2 wide, 3 deep around the bot (obsidian floor); the goal 6,0,0 beyond it; 16 cobblestone',
    world,
    step: walkTo(6, 0, 0),
  };
}

/** An obsidian wall across the island, six high, whose one dirt block sits under a one-high gap. */
export function wallWithOneDiggable(clock: Clock): HardCase {
  const world = island(clock);
  world.fill({ x: 3, y: 0, z: -ISLAND_RADIUS }, { x: 3, y: 5, z: ISLAND_RADIUS }, 'obsidian');
  world.setBlock({ x: 3, y: 0, z: 0 }, 'dirt');
  world.setBlock({ x: 3, y: 1, z: 0 }, 'air');
  return {
    name: 'wallWithOneDiggable',
    description: 'a 6-high obsidian wall at x=3 with one dirt block at 3,0,0 under a 1-high gap; the goal 6,0,0',
    world,
    step: walkTo(6, 0, 0),
  };
}

/** The nearest oak log shows through a pocket sealed in obsidian; another stands in the open further away. */
export function nearestUnreachable(clock: Clock): HardCase {
  const world = island(clock);
  world.fill({ x: 2, y: 0, z: -2 }, { x: 6, y: 4, z: 2 }, 'obsidian');
  world.setBlock({ x: 4, y: 1, z: 0 }, 'oak_log');
  world.setBlock({ x: 4, y: 2, z: 0 }, 'air');
  world.setBlock({ x: -7, y: 0, z: 0 }, 'oak_log');
  return {
    name: 'nearestUnreachable',
    description: 'an oak log at 4,1,0 in an air pocket sealed in obsidian; another at -7,0,0 in the open',
    world,
    step: { type: 'collect_block', args: { block: 'oak_log', count: 1, radius: 16 } },
  };
}

export const HARD_CASES = [moat, wallWithOneDiggable, nearestUnreachable] as const;
