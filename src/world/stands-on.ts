import minecraftData from 'minecraft-data';
import { FLOOR_COVERING, type Footing } from '../contracts/stands-on.js';
import type { Vec3Like } from '../contracts/world.js';
import { MINECRAFT_VERSION } from './recipes.js';

/*
 * The worlds' half of "the bot stands on cell C" (the rule itself is src/contracts/stands-on.ts): the ground under a
 * body's feet, read from the blocks' real collision shapes, minecraft-data's, which the server's physics and
 * prismarine-physics collide with. Farmland and dirt paths are 15/16 tall, soul sand 7/8, a bottom slab 1/2, a chest
 * 7/8, a bed 9/16, snow 1/8 per layer over the first, a carpet 1/16.
 */

const data = minecraftData(MINECRAFT_VERSION);
const shapes = data.blockCollisionShapes;

/** A collision box relative to its cell: [x1, y1, z1, x2, y2, z2]. */
type Box = readonly number[];

/**
 * The tops (relative to the cell's floor) of a block's collision boxes in one of its states (an offset from its first
 * state id, minecraft-data's order); its default state when none is given. Empty for air, water, grass tufts...
 */
export function collisionTops(name: string, stateOffset?: number): readonly number[] {
  if (stateOffset !== undefined) return topsOf(name, stateOffset);
  let tops = defaultTops.get(name);
  if (tops === undefined) defaultTops.set(name, (tops = topsOf(name)));
  return tops;
}

/** Each name's default state's tops, asked for by SimWorld on every step it takes. */
const defaultTops = new Map<string, readonly number[]>();

function topsOf(name: string, stateOffset?: number): readonly number[] {
  const block = data.blocksByName[name];
  const ids = shapes.blocks[name];
  if (!block || ids === undefined) return [];
  const id = Array.isArray(ids) ? ids[stateOffset ?? block.defaultState - block.minStateId] : ids;
  return ((id === undefined ? [] : (shapes.shapes[id] ?? [])) as Box[]).map((box) => box[4]!);
}

/** The highest top of a block's collision boxes (0 when it has none): how far above its floor a body on it rests. */
export function collisionHeight(name: string, stateOffset?: number): number {
  return Math.max(0, ...collisionTops(name, stateOffset));
}

/** Whether a body can occupy the block's cell: nothing to collide with, or a floor covering (a carpet) to stand on. */
export function isWalkThrough(name: string): boolean {
  return collisionHeight(name) <= FLOOR_COVERING;
}

/** Half a player's width: the body's footprint reaches this far each way from its centre. */
const HALF_WIDTH = 0.3;

/**
 * The ground under feet at `feet`: the highest collision top under the body's footprint (0.6 wide, as the physics
 * collides), at or below the feet, in their cell or the one below (a fence's 1.5 reaches up from the cell below into
 * the feet's); null when none is. A body at x 4.2 stepping onto farmland still rests on the grass edge of x 3 at 5.
 * `topsAt` answers a cell's collision tops as the world holds the block there.
 */
export function groundUnder(feet: Vec3Like, topsAt: (cell: Vec3Like) => readonly number[]): number | null {
  const feetCell = Math.floor(feet.y);
  let ground: number | null = null;
  for (let x = Math.floor(feet.x - HALF_WIDTH); x <= Math.floor(feet.x + HALF_WIDTH - 1e-9); x++)
    for (let z = Math.floor(feet.z - HALF_WIDTH); z <= Math.floor(feet.z + HALF_WIDTH - 1e-9); z++)
      for (const y of [feetCell, feetCell - 1])
        for (const top of topsAt({ x, y, z })) {
          const at = y + top;
          if (at <= feet.y + RESTING && (ground === null || at > ground)) ground = at;
        }
  return ground;
}

/**
 * Where feet rest when a body stands in cell C (SimWorld's body): on the highest collision top in C or the cell below
 * up to C's floor covering (farmland below: C - 1/16; a carpet in C: C + 1/16); C when nothing is there.
 */
export function restingFeetY(cell: Vec3Like, topsAt: (cell: Vec3Like) => readonly number[]): number {
  return groundUnder({ x: cell.x + 0.5, y: cell.y + FLOOR_COVERING, z: cell.z + 0.5 }, topsAt) ?? cell.y;
}

/** Feet this close above a top rest on it (physics lands them on it to float precision). */
const RESTING = 1e-3;

/** A body's footing, for the rule: whether its physics holds it on the ground, and the ground under its feet. */
export function footingOf(feet: Vec3Like, onGround: boolean, topsAt: (cell: Vec3Like) => readonly number[]): Footing {
  return { onGround, ground: groundUnder(feet, topsAt) };
}
