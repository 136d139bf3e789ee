import type { Clock } from '../contracts/clock.js';
import { deriveSeed, mulberry32, randomInt, type Random } from '../random.js';
import { SimWorld } from '../world/sim/index.js';

/*
 * Stuck cases where the fixed ladder fails or wastes real time (issue 33 §4), generated in SimWorld for the branch
 * tests and `npm run bench -- foresight`. Each is a world and the one step to run in it. Each kind has a fixed
 * instance (the tests name its cells) and instances drawn from a seed (`generateHardCases`): turned a quarter at a
 * time about the bot, with distances and the soft block's place drawn within what keeps the case stuck for the fixed
 * ladder and open to a way out.
 */

export interface HardCase {
  name: string;
  description: string;
  world: SimWorld;
  step: { type: string; args: Record<string, unknown> };
}

const ISLAND_RADIUS = 12;
const walkTo = ({ x, y, z }: Cell) => ({ type: 'navigate', args: { target: { kind: 'block', x, y, z } } });

interface Cell {
  x: number;
  y: number;
  z: number;
}

function island(clock: Clock, inventory: Record<string, number> = {}): SimWorld {
  return SimWorld.create({
    clock,
    seed: 1,
    ground: { radius: ISLAND_RADIUS },
    unbreakable: ['obsidian'],
    inventory,
  });
}

/** A quarter turn `turns` times about the bot's cell (0, 0), on the ground plane. */
function turned(turns: number): (at: Cell) => Cell {
  return (at) => {
    let { x, z } = at;
    for (let i = 0; i < turns % 4; i++) [x, z] = [-z, x];
    return { x, y: at.y, z };
  };
}

/**
 * A trench `width` wide and three deep all round the bot (obsidian floor): no walk crosses it, a bridge does. The goal
 * `goalAt` away, turned `turns` quarters.
 */
export function moatOf(turns: number, width: number, goalAt: number) {
  const goal = turned(turns)({ x: goalAt, y: 0, z: 0 });
  return (clock: Clock): HardCase => {
    const outer = 1 + width;
    const world = island(clock, { cobblestone: 16 });
    world.fill({ x: -outer, y: -4, z: -outer }, { x: outer, y: -4, z: outer }, 'obsidian');
    for (let x = -outer; x <= outer; x++)
      for (let z = -outer; z <= outer; z++)
        if (Math.max(Math.abs(x), Math.abs(z)) >= 2) world.fill({ x, y: -3, z }, { x, y: -1, z }, 'air');
    return {
      name: 'moat',
      description: `a trench ${width} wide, 3 deep around the bot (obsidian floor); the goal ${goal.x},0,${goal.z} beyond it; 16 cobblestone`,
      world,
      step: walkTo(goal),
    };
  };
}

/** An obsidian wall `at` blocks away, six high, whose one dirt block (`along` it) sits under a one-high gap. */
export function wallOf(turns: number, at: number, along: number) {
  const turn = turned(turns);
  const soft = turn({ x: at, y: 0, z: along });
  const goal = turn({ x: at + 3, y: 0, z: 0 });
  return (clock: Clock): HardCase => {
    const world = island(clock);
    world.fill(turn({ x: at, y: 0, z: -ISLAND_RADIUS }), turn({ x: at, y: 5, z: ISLAND_RADIUS }), 'obsidian');
    world.setBlock(soft, 'dirt');
    world.setBlock({ ...soft, y: 1 }, 'air');
    return {
      name: 'wallWithOneDiggable',
      description: `a 6-high obsidian wall with one dirt block at ${soft.x},0,${soft.z} under a 1-high gap; the goal ${goal.x},0,${goal.z}`,
      world,
      step: walkTo(goal),
    };
  };
}

/** The nearest oak log shows through a pocket sealed in obsidian `sealedAt` away; another stands in the open behind. */
export function sealedLogOf(turns: number, sealedAt: number, openAt: Cell) {
  const turn = turned(turns);
  const sealed = turn({ x: sealedAt, y: 1, z: 0 });
  const open = turn(openAt);
  return (clock: Clock): HardCase => {
    const world = island(clock);
    world.fill(turn({ x: sealedAt - 2, y: 0, z: -2 }), turn({ x: sealedAt + 2, y: 4, z: 2 }), 'obsidian');
    world.setBlock(sealed, 'oak_log');
    world.setBlock({ ...sealed, y: 2 }, 'air');
    world.setBlock(open, 'oak_log');
    return {
      name: 'nearestUnreachable',
      description: `an oak log at ${sealed.x},1,${sealed.z} in an air pocket sealed in obsidian; another at ${open.x},0,${open.z} in the open`,
      world,
      step: { type: 'collect_block', args: { block: 'oak_log', count: 1, radius: 16 } },
    };
  };
}

/**
 * An item wanted whose usual recipe takes oak planks, the pack holding logs of another kind and no oak growing near:
 * the sub-goals go for oak and find none, while planks of the kind held make the item as well.
 */
export function otherRecipeOf(turns: number, log: string, item: string, count: number) {
  return (clock: Clock): HardCase => {
    const world = island(clock, { [log]: 2 });
    // A tree of the held kind stands in sight, turned as drawn: gathering more of it is no way to oak.
    const tree = turned(turns)({ x: 5, y: 0, z: 2 });
    world.fill(tree, { ...tree, y: 3 }, log);
    return {
      name: 'otherRecipe',
      description: `${count} ${item} wanted; the pack holds 2 ${log}, a tree of it at ${tree.x},0,${tree.z}, no oak near (the usual recipe takes oak planks)`,
      world,
      step: { type: 'craft_item', args: { item, count } },
    };
  };
}

/** A trench two wide and three deep all round the bot: no walk crosses it, a two-block bridge does. */
export const moat = moatOf(0, 2, 6);
/** An obsidian wall across the island at x=3, six high, whose one dirt block (3,0,0) sits under a one-high gap. */
export const wallWithOneDiggable = wallOf(0, 3, 0);
/** The nearest oak log (4,1,0) shows through a pocket sealed in obsidian; another stands in the open at -7,0,0. */
export const nearestUnreachable = sealedLogOf(0, 4, { x: -7, y: 0, z: 0 });
/** A crafting table wanted with two birch logs in the pack and no oak near. */
export const otherRecipe = otherRecipeOf(0, 'birch_log', 'crafting_table', 1);

export const HARD_CASES = [moat, wallWithOneDiggable, nearestUnreachable, otherRecipe] as const;

export type HardCaseKind = 'moat' | 'wallWithOneDiggable' | 'nearestUnreachable' | 'otherRecipe';

const OTHER_LOGS = ['birch_log', 'spruce_log', 'jungle_log', 'acacia_log', 'dark_oak_log', 'cherry_log'];
const PLANK_ITEMS: readonly [string, number][] = [
  ['crafting_table', 1],
  ['stick', 4],
];

export interface GeneratedHardCase {
  kind: HardCaseKind;
  /** The kind and the instance's number, e.g. "moat-2". */
  name: string;
  make: (clock: Clock) => HardCase;
}

const DRAW: Record<HardCaseKind, (random: Random) => (clock: Clock) => HardCase> = {
  moat: (random) => moatOf(randomInt(random, 0, 3), randomInt(random, 2, 3), randomInt(random, 6, 8)),
  // The wall 3 or 4 away, its soft block off the straight way: nearer, or on it, the fixed ladder's dig-out finds it.
  wallWithOneDiggable: (random) =>
    wallOf(randomInt(random, 0, 3), randomInt(random, 3, 4), randomInt(random, 2, 3) * (random() < 0.5 ? -1 : 1)),
  nearestUnreachable: (random) =>
    sealedLogOf(randomInt(random, 0, 3), randomInt(random, 3, 5), {
      x: -randomInt(random, 6, 9),
      y: 0,
      z: randomInt(random, -3, 3),
    }),
  otherRecipe: (random) => {
    const [item, count] = PLANK_ITEMS[randomInt(random, 0, PLANK_ITEMS.length - 1)]!;
    return otherRecipeOf(
      randomInt(random, 0, 3),
      OTHER_LOGS[randomInt(random, 0, OTHER_LOGS.length - 1)]!,
      item,
      count,
    );
  },
};

/** `perKind` instances of each kind, their layouts drawn from `seed`: the same seed, the same cases. */
export function generateHardCases(seed: number, perKind: number): GeneratedHardCase[] {
  const cases: GeneratedHardCase[] = [];
  for (const kind of Object.keys(DRAW) as HardCaseKind[]) {
    const random = mulberry32(deriveSeed(seed, kind));
    for (let n = 1; n <= perKind; n++) cases.push({ kind, name: `${kind}-${n}`, make: DRAW[kind](random) });
  }
  return cases;
}
