import type { Vec3Like } from '../../contracts/world.js';
import { type Cell, canStand, hasFloor, type MobTerrain, type Position, open } from './terrain.js';

/** A mob steps up one block at most (its step height and a jump) and walks off a ledge of at most 3. */
export const MAX_STEP_UP = 1;
export const MAX_DROP = 3;
/** The highest wall a climber's walk goes up in one step (the search's bound; a spider climbs any height). */
export const MAX_CLIMB = 32;

/**
 * The cells a mob's body takes, as vanilla's path finding counts them (WalkNodeEvaluator: entityWidth =
 * floor(width + 1) cells on each side from the node's corner, entityHeight = ceil(height) up): a zombie (0.6 × 1.95)
 * takes 1 × 1 × 2, a spider (1.4 × 0.9) 2 × 2 × 1, so it crawls under a 1-high gap but never down a 1-wide shaft.
 */
export interface MobBody {
  /** Cells along x and along z, from the node's cell up. */
  side: number;
  /** Cells up from the feet. */
  height: number;
}

/** A player-sized body: one cell, two high (what a walk without a mob's size is for). */
export const ONE_CELL_BODY: MobBody = { side: 1, height: 2 };

export function bodyOf(size: { width: number; height: number }): MobBody {
  return { side: Math.floor(size.width + 1), height: Math.ceil(size.height) };
}

/** Whether every cell of the body with its corner cell at (x, y, z) is open. */
export function fits(
  terrain: MobTerrain,
  x: number,
  y: number,
  z: number,
  body: MobBody,
  height = body.height,
): boolean {
  for (let dx = 0; dx < body.side; dx++)
    for (let dz = 0; dz < body.side; dz++)
      for (let dy = 0; dy < height; dy++) if (!open(terrain, x + dx, y + dy, z + dz)) return false;
  return true;
}

/** Whether the body can stand with its corner cell at (x, y, z): ground under that cell, and room for all of it. */
export function standsAt(terrain: MobTerrain, x: number, y: number, z: number, body: MobBody): boolean {
  if (body.side === ONE_CELL_BODY.side && body.height === ONE_CELL_BODY.height) return canStand(terrain, x, y, z);
  return hasFloor(terrain, x, y, z) && fits(terrain, x, y, z, body);
}

/** The eight horizontal directions, orthogonal first, in a fixed order so walks are deterministic. */
const DIRECTIONS: readonly (readonly [number, number])[] = [
  [0, -1],
  [1, 0],
  [0, 1],
  [-1, 0],
  [1, -1],
  [1, 1],
  [-1, 1],
  [-1, -1],
];

/**
 * The cell a mob standing in `from` reaches by one step in direction (dx, dz), or null: the same level, one up (with
 * head room to jump), up the face of a wall for a climber (with its own column open all the way), or down a ledge of
 * up to MAX_DROP through open cells. A diagonal step keeps its level and needs both orthogonal cells open, so a mob
 * never cuts a corner through a wall. Every cell is judged for the whole `body` (a spider's 2 × 2 × 1).
 */
export function step(
  terrain: MobTerrain,
  from: Cell,
  dx: number,
  dz: number,
  climbs = false,
  body: MobBody = ONE_CELL_BODY,
): Cell | null {
  const { x, y, z } = from;
  const [nx, nz] = [x + dx, z + dz];
  if (dx !== 0 && dz !== 0) {
    const side = (sx: number, sz: number) => fits(terrain, sx, y, sz, body);
    return side(nx, z) && side(x, nz) && standsAt(terrain, nx, y, nz, body) ? { x: nx, y, z: nz } : null;
  }
  if (standsAt(terrain, nx, y, nz, body)) return { x: nx, y, z: nz };
  if (fits(terrain, x, y + 1, z, body) && standsAt(terrain, nx, y + MAX_STEP_UP, nz, body))
    return { x: nx, y: y + MAX_STEP_UP, z: nz };
  if (climbs)
    for (let up = MAX_STEP_UP + 1; up <= MAX_CLIMB && fits(terrain, x, y + up, z, body); up++)
      if (standsAt(terrain, nx, y + up, nz, body)) return { x: nx, y: y + up, z: nz };
  if (!fits(terrain, nx, y, nz, body)) return null;
  for (let drop = 1; drop <= MAX_DROP; drop++) {
    if (!fits(terrain, nx, y - drop, nz, body, 1)) return null;
    if (standsAt(terrain, nx, y - drop, nz, body)) return { x: nx, y: y - drop, z: nz };
  }
  return null;
}

const key = (c: Cell) => `${c.x},${c.y},${c.z}`;

function estimate(a: Cell, b: Cell): number {
  const dx = Math.abs(a.x - b.x);
  const dz = Math.abs(a.z - b.z);
  return Math.max(dx, dz) + (Math.SQRT2 - 1) * Math.min(dx, dz) + Math.abs(a.y - b.y);
}

interface Node {
  cell: Cell;
  cost: number;
  score: number;
  parent: Node | null;
}

/**
 * The cells a mob walks from `from` towards `goal` (not including `from`), by A* over `step`, visiting at most
 * `maxNodes` cells. It stops within `range` blocks (horizontally) of the goal; when the goal cannot be reached it walks
 * to the cell nearest to it, as vanilla's partial paths do. Empty when no step gets it closer.
 */
export function findWalk(
  terrain: MobTerrain,
  from: Cell,
  goal: Cell,
  range: number,
  maxNodes: number,
  climbs = false,
  body: MobBody = ONE_CELL_BODY,
): Cell[] {
  const start: Node = { cell: from, cost: 0, score: estimate(from, goal), parent: null };
  const open: Node[] = [start];
  const best = new Map<string, number>([[key(from), 0]]);
  let nearest = start;
  for (let visited = 0; open.length > 0 && visited < maxNodes; visited++) {
    const node = popLowest(open);
    const left = estimate(node.cell, goal);
    if (left < estimate(nearest.cell, goal)) nearest = node;
    if (Math.hypot(node.cell.x - goal.x, node.cell.z - goal.z) <= range && Math.abs(node.cell.y - goal.y) <= 1) {
      nearest = node;
      break;
    }
    for (const [dx, dz] of DIRECTIONS) {
      const next = step(terrain, node.cell, dx, dz, climbs, body);
      if (!next) continue;
      const rise = next.y - node.cell.y;
      const cost =
        node.cost + (dx !== 0 && dz !== 0 ? Math.SQRT2 : 1) + (rise > MAX_STEP_UP ? rise : rise > 0 ? 0.5 : 0);
      const k = key(next);
      if ((best.get(k) ?? Infinity) <= cost) continue;
      best.set(k, cost);
      open.push({ cell: next, cost, score: cost + estimate(next, goal), parent: node });
    }
  }
  const walk: Cell[] = [];
  for (let node: Node | null = nearest; node && node !== start; node = node.parent) walk.unshift(node.cell);
  return walk;
}

function popLowest(nodes: Node[]): Node {
  let lowest = 0;
  for (let i = 1; i < nodes.length; i++) if (nodes[i]!.score < nodes[lowest]!.score) lowest = i;
  const [node] = nodes.splice(lowest, 1);
  return node!;
}

/**
 * Moves a mob along its walk by `distance` blocks this tick: horizontally towards the middle of the next cell, taking
 * that cell's height as it enters it (a step up or a drop); a climb up a wall higher than a step rises first, at the
 * same speed (a spider climbs at about its walking pace, 0.2 blocks a tick), then steps over. Returns the cells still
 * ahead. A cell that is no longer standable (a block placed in the way) ends the walk where the mob is.
 */
export function advance(
  terrain: MobTerrain,
  position: Position,
  walk: readonly Cell[],
  distance: number,
  body: MobBody = ONE_CELL_BODY,
): Cell[] {
  const ahead = [...walk];
  let left = distance;
  while (left > 1e-9 && ahead.length > 0) {
    const next = ahead[0]!;
    if (!standsAt(terrain, next.x, next.y, next.z, body)) return [];
    if (next.y - position.y > MAX_STEP_UP) {
      const rise = Math.min(left, next.y - MAX_STEP_UP - position.y);
      position.y += rise;
      left -= rise;
      continue;
    }
    const [tx, tz] = [next.x + 0.5, next.z + 0.5];
    const gap = Math.hypot(tx - position.x, tz - position.z);
    const move = Math.min(left, gap);
    if (gap > 0) {
      position.x += ((tx - position.x) * move) / gap;
      position.z += ((tz - position.z) * move) / gap;
    }
    left -= move;
    if (Math.floor(position.x) === next.x && Math.floor(position.z) === next.z) position.y = next.y;
    if (move === gap) {
      position.y = next.y;
      ahead.shift();
    }
  }
  return ahead;
}

/**
 * Moves a mob `distance` blocks straight towards `goal` on its own level, where its body can stand all the way: the
 * last stretch of a chase, past the end of its walk (a walk ends in the cell next to the target's). Never into a cell
 * it cannot stand in, nor across a corner between two cells it cannot stand in.
 */
export function approach(
  terrain: MobTerrain,
  position: Position,
  goal: Vec3Like,
  distance: number,
  body: MobBody = ONE_CELL_BODY,
): void {
  const dx = goal.x - position.x;
  const dz = goal.z - position.z;
  const gap = Math.hypot(dx, dz);
  if (gap === 0 || distance <= 0) return;
  const x = position.x + (dx * distance) / gap;
  const z = position.z + (dz * distance) / gap;
  const y = Math.floor(position.y);
  const [fromX, fromZ, toX, toZ] = [Math.floor(position.x), Math.floor(position.z), Math.floor(x), Math.floor(z)];
  const standable = (cx: number, cz: number) => (cx === fromX && cz === fromZ) || standsAt(terrain, cx, y, cz, body);
  if (!standable(toX, toZ) || !standable(toX, fromZ) || !standable(fromX, toZ)) return;
  position.x = x;
  position.z = z;
}
