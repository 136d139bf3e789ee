import type { Clock } from '../../contracts/clock.js';
import type { NavigationGoal, Vec3Like } from '../../contracts/world.js';
import { randomInt } from '../../random.js';
import { SimWorld } from './sim-world.js';

export interface ScenarioOptions {
  clock: Clock;
  seed?: number;
}

/** A ready world plus the goal the bot is asked to reach and what a correct runtime can make of it. */
export interface SimScenario {
  name: string;
  description: string;
  world: SimWorld;
  goal: NavigationGoal;
  /**
   * reachable: goto works as is; recoverable: goto fails until a recovery move (dig, pillar up) opens a way;
   * impossible: nothing local helps.
   */
  outcome: 'reachable' | 'recoverable' | 'impossible';
}

/** Islands keep unreachable searches finite, so goto ends with noPath instead of a node-limit timeout. */
const ISLAND_RADIUS = 12;

function island(options: ScenarioOptions, extra: Partial<ConstructorParameters<typeof SimWorld>[0]> = {}): SimWorld {
  return SimWorld.create({
    clock: options.clock,
    seed: options.seed ?? 1,
    ground: { radius: ISLAND_RADIUS },
    ...extra,
  });
}

/** A two-high ring of cells around (cx, y, cz) at Chebyshev distance 1. */
function ring(world: SimWorld, cx: number, cz: number, y0: number, y1: number, block: string): void {
  for (let x = cx - 1; x <= cx + 1; x++)
    for (let z = cz - 1; z <= cz + 1; z++)
      if (x !== cx || z !== cz) world.fill({ x, y: y0, z }, { x, y: y1, z }, block);
}

/** Obsidian (unbreakable here) two high on four sides, open above: walking fails; pillaring up once gets out. */
export function walledIn(options: ScenarioOptions): SimScenario {
  const world = island(options, { unbreakable: ['obsidian'], inventory: { cobblestone: 16 } });
  ring(world, 0, 0, 0, 1, 'obsidian');
  return {
    name: 'walledIn',
    description: 'bot at 0,0,0 inside a 2-high unbreakable obsidian ring, open sky, 16 cobblestone to pillar with',
    world,
    goal: { kind: 'block', x: 5, y: 0, z: 0 },
    outcome: 'recoverable',
  };
}

/**
 * A dirt wall three high across the island between the bot and its goal. With
 * `detour`, the wall has a gap and goto walks around it; without, the bot must
 * dig through (dirt breaks by hand in 750 ms) or pillar over it.
 */
export function obstacleInPath(options: ScenarioOptions & { detour?: boolean }): SimScenario {
  const world = island(options, { inventory: { cobblestone: 16 } });
  world.fill({ x: 3, y: 0, z: -ISLAND_RADIUS }, { x: 3, y: 2, z: ISLAND_RADIUS }, 'dirt');
  if (options.detour) world.fill({ x: 3, y: 0, z: 4 }, { x: 3, y: 1, z: 4 }, 'air');
  return {
    name: 'obstacleInPath',
    description: options.detour
      ? 'a 3-high dirt wall at x=3 with a gap at z=4; the goal is behind it'
      : 'a 3-high dirt wall across the island at x=3; the goal is behind it',
    world,
    goal: { kind: 'block', x: 6, y: 0, z: 0 },
    outcome: options.detour ? 'reachable' : 'recoverable',
  };
}

/**
 * The goal cell sits sealed in the middle of a thick bedrock block: no path, no
 * dig, no pillar reaches it, and no cell within 3 blocks of it is open, so even a
 * goal loosened to `near` with range 3 stays out of reach.
 */
export function unreachableTarget(options: ScenarioOptions): SimScenario {
  const world = island(options);
  world.fill({ x: 3, y: 0, z: -3 }, { x: 9, y: 4, z: 3 }, 'bedrock');
  world.fill({ x: 6, y: 0, z: 0 }, { x: 6, y: 1, z: 0 }, 'air');
  return {
    name: 'unreachableTarget',
    description: 'goal 6,0,0 is a hollow sealed inside a 7x5x7 bedrock block; nothing open within 3 blocks of it',
    world,
    goal: { kind: 'block', x: 6, y: 0, z: 0 },
    outcome: 'impossible',
  };
}

/** Unbreakable obsidian on all six sides of the bot: nothing it can do gets it out. */
export function boxedIn(options: ScenarioOptions): SimScenario {
  const world = island(options, { unbreakable: ['obsidian'], inventory: { cobblestone: 16 } });
  world.fill({ x: -1, y: -1, z: -1 }, { x: 1, y: 2, z: 1 }, 'obsidian');
  world.fill({ x: 0, y: 0, z: 0 }, { x: 0, y: 1, z: 0 }, 'air');
  return {
    name: 'boxedIn',
    description: 'bot at 0,0,0 sealed by unbreakable obsidian above, below and on four sides',
    world,
    goal: { kind: 'block', x: 5, y: 0, z: 0 },
    outcome: 'impossible',
  };
}

/**
 * A bedrock wall with two gates between the bot and the goal. Whenever the bot
 * comes within two blocks of the open gate, that gate shuts and the other opens,
 * so goto keeps replanning and the bot walks back and forth without arriving.
 */
export function flappingGoal(options: ScenarioOptions): SimScenario {
  const world = island(options);
  const wallZ = 3;
  const gates: Vec3Like[] = [
    { x: -5, y: 0, z: wallZ },
    { x: 5, y: 0, z: wallZ },
  ];
  world.fill({ x: -ISLAND_RADIUS, y: 0, z: wallZ }, { x: ISLAND_RADIUS, y: 2, z: wallZ }, 'bedrock');
  let open = 0;
  const setGate = (gate: Vec3Like, block: string) => world.fill(gate, { x: gate.x, y: gate.y + 1, z: gate.z }, block);
  setGate(gates[open]!, 'air');
  world.onMoved((position) => {
    const gate = gates[open]!;
    const near = Math.abs(Math.floor(position.x) - gate.x) + Math.abs(Math.floor(position.z) - gate.z) <= 2;
    if (!near) return;
    setGate(gate, 'bedrock');
    open = 1 - open;
    setGate(gates[open]!, 'air');
  });
  return {
    name: 'flappingGoal',
    description:
      'two gates in a bedrock wall at z=3 that swap (one shuts, the other opens) whenever the bot nears the open one',
    world,
    goal: { kind: 'block', x: 0, y: 0, z: 6 },
    outcome: 'impossible',
  };
}

/**
 * Oak trees on open ground around spawn and cobblestone in the inventory: the
 * real demo's setting (logs -> planks -> sticks -> a stone axe at a table).
 */
export function forest(options: ScenarioOptions & { trees?: number }): SimScenario {
  const world = SimWorld.create({ clock: options.clock, seed: options.seed ?? 1, inventory: { cobblestone: 3 } });
  const trunks: Vec3Like[] = [];
  for (let attempt = 0; trunks.length < (options.trees ?? 6) && attempt < 1000; attempt++) {
    const x = randomInt(world.random, -14, 14);
    const z = randomInt(world.random, -14, 14);
    const farFromSpawn = Math.max(Math.abs(x), Math.abs(z)) >= 4;
    const apart = trunks.every((t) => Math.max(Math.abs(t.x - x), Math.abs(t.z - z)) >= 4);
    if (farFromSpawn && apart) trunks.push({ x, y: 0, z });
  }
  for (const trunk of trunks) plantOak(world, trunk, 4 + randomInt(world.random, 0, 1));
  const nearest = trunks.reduce(
    (best, t) => (Math.hypot(t.x, t.z) < Math.hypot(best.x, best.z) ? t : best),
    trunks[0]!,
  );
  return {
    name: 'forest',
    description: `${trunks.length} oak trees around spawn, 3 cobblestone in the inventory`,
    world,
    goal: { kind: 'near', x: nearest.x, y: 0, z: nearest.z, range: 2 },
    outcome: 'reachable',
  };
}

function plantOak(world: SimWorld, base: Vec3Like, height: number): void {
  const top = base.y + height - 1;
  world.fill({ x: base.x - 1, y: top - 1, z: base.z - 1 }, { x: base.x + 1, y: top + 1, z: base.z + 1 }, 'oak_leaves');
  world.fill(base, { x: base.x, y: top, z: base.z }, 'oak_log');
}

export const SCENARIOS = { walledIn, obstacleInPath, unreachableTarget, boxedIn, flappingGoal, forest } as const;
export type ScenarioName = keyof typeof SCENARIOS;
