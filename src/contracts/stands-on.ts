import type { NavigationGoal, Vec3Like } from './world.js';

/*
 * The one rule for "the bot stands on cell C", which every check of a position uses: a walk's arrival in both worlds,
 * the `position` expectation's acceptance, the distance a walk reports as progress (and the stuck detectors judge), a
 * navigate step's guard, and SimWorld's body. A cell C names where the bot is, as a navigation goal names it: the cell
 * above the ground it stands on (GoalBlock(x, 5, z) is met by a bot on the full block, the farmland or the bottom slab
 * of y 4). The ground is the real collision top the world reports (minecraft-data's shapes), so the feet of a bot on
 * farmland rest at 4.9375, not 5.
 */

/** How a body rests, as the world's physics holds it (both worlds report it, `Observation.footing`). */
export interface Footing {
  /** The body rests on something: not jumping, falling or lifted by water. */
  onGround: boolean;
  /**
   * The top of the highest collision shape in the feet's column at or just below the feet (within one block): what
   * the feet rest on when they rest; null when nothing is there.
   */
  ground: number | null;
}

/**
 * A ground this thin above a cell's floor counts as that floor: carpets (1/16), which mineflayer-pathfinder walks
 * over as air, so a bot on the carpet of cell 5 stands in cell 5, where on any thicker ground (a snow layer, 1/8) it
 * stands in the cell above it.
 */
export const FLOOR_COVERING = 1 / 16;

/** Feet this close to the ground's top rest on it (physics lands them on it to float precision). */
const RESTING = 1e-3;

/** A height exactly enough to tell 4.9375 from 4.875 (every collision top is a multiple of 1/16): "4.9375", "5". */
export function heightText(y: number): string {
  return String(Math.round(y * 10_000) / 10_000);
}

/** The cell a body whose feet are at `position` would stand in: the cell above its ground (see FLOOR_COVERING). */
export function feetCell(position: Vec3Like): Vec3Like {
  return {
    x: Math.floor(position.x),
    // + 0: never -0 (a cell is a key, and -0 prints as 0 but compares unequal in deep equality).
    y: Math.ceil(position.y - FLOOR_COVERING - RESTING) + 0,
    z: Math.floor(position.z),
  };
}

/** The cell the bot stands in, or why it stands in none: airborne, or its feet not on the ground's top. */
export function standingCell(position: Vec3Like, footing: Footing): { cell: Vec3Like } | { why: string } {
  const feet = heightText(position.y);
  if (!footing.onGround) return { why: `it is airborne (feet at y ${feet})` };
  if (footing.ground === null) return { why: `nothing is under its feet (y ${feet})` };
  if (Math.abs(position.y - footing.ground) > RESTING)
    return {
      why: `its feet at y ${feet} do not rest on the ground below them, whose top is at y ${heightText(footing.ground)}`,
    };
  return { cell: feetCell(position) };
}

/** Null when the bot stands on `cell`; otherwise why not, with the heights that show it. */
export function standsOn(position: Vec3Like, footing: Footing, cell: Vec3Like): string | null {
  const standing = standingCell(position, footing);
  if ('why' in standing) return standing.why;
  return sameCell(standing.cell, cell)
    ? null
    : `it stands on ${cellText(standing.cell)} (feet at y ${heightText(position.y)})`;
}

/** Null when the bot stands where the goal is met (mineflayer-pathfinder's goal rules over its standing cell); otherwise why not. */
export function unmetGoal(goal: NavigationGoal, position: Vec3Like, footing: Footing): string | null {
  const standing = standingCell(position, footing);
  if ('why' in standing) return standing.why;
  if (cellMeetsGoal(goal, standing.cell)) return null;
  return `it stands on ${cellText(standing.cell)} (feet at y ${heightText(position.y)}), ${cellDistance(standing.cell, goal).toFixed(1)} blocks short`;
}

/** Whether a bot standing in `cell` meets the goal, by mineflayer-pathfinder's rules (block cells, squared ranges). */
export function cellMeetsGoal(goal: NavigationGoal, cell: Vec3Like): boolean {
  return cellDistance(cell, goal) <= 0;
}

/** How far a body at `position` is from meeting the goal, in blocks between cells (0 there); airborne or not. */
export function distanceToGoal(position: Vec3Like, goal: NavigationGoal): number {
  return cellDistance(feetCell(position), goal);
}

function cellDistance(cell: Vec3Like, goal: NavigationGoal): number {
  const dx = cell.x - Math.floor(goal.x);
  const dz = cell.z - Math.floor(goal.z);
  switch (goal.kind) {
    case 'block':
      return Math.hypot(dx, cell.y - Math.floor(goal.y), dz);
    case 'near':
      return Math.max(0, Math.hypot(dx, cell.y - Math.floor(goal.y), dz) - goal.range);
    case 'xz':
      return Math.max(0, Math.hypot(dx, dz) - (goal.range ?? 0));
  }
}

function sameCell(a: Vec3Like, b: Vec3Like): boolean {
  return a.x === Math.floor(b.x) && a.y === Math.floor(b.y) && a.z === Math.floor(b.z);
}

function cellText(cell: Vec3Like): string {
  return `${cell.x},${cell.y},${cell.z}`;
}
