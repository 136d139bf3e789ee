import type { NavigationGoal } from '../../contracts/world.js';
import { HAZARD_ESCAPE_COST } from '../hazards.js';
import { cellKey } from './grid.js';
import { goalHeuristic, goalSatisfied } from './goals.js';
import { type Cell, DIRECTIONS, type Terrain } from './terrain.js';

export type PathResult =
  | { status: 'found'; path: Cell[]; explored: number }
  /** The reachable area was searched to its end: no path exists. */
  | { status: 'noPath'; explored: number }
  /**
   * The node limit ran out first: a path may exist further away. `partial` leads
   * to the explored cell closest to the goal (empty when that is the start).
   */
  | { status: 'timeout'; explored: number; partial: Cell[]; partialHeuristic: number };

interface SearchNode {
  cell: Cell;
  g: number;
  h: number;
  f: number;
  order: number;
  parent: SearchNode | null;
  closed: boolean;
}

const JUMP_COST = 1;

/** A binary min-heap on (f, depth, insertion order), so equal-cost ties resolve the same way every run. */
class OpenSet {
  private readonly heap: SearchNode[] = [];

  get size(): number {
    return this.heap.length;
  }

  push(node: SearchNode): void {
    const heap = this.heap;
    heap.push(node);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  pop(): SearchNode | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length > 0 && last) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let smallest = i;
        if (left < heap.length && before(heap[left]!, heap[smallest]!)) smallest = left;
        if (right < heap.length && before(heap[right]!, heap[smallest]!)) smallest = right;
        if (smallest === i) break;
        [heap[i], heap[smallest]] = [heap[smallest]!, heap[i]!];
        i = smallest;
      }
    }
    return top;
  }
}

/** On equal f, the deeper node first (it is closer to the goal), then the older one. */
function before(a: SearchNode, b: SearchNode): boolean {
  if (a.f !== b.f) return a.f < b.f;
  if (a.g !== b.g) return a.g > b.g;
  return a.order < b.order;
}

/**
 * Whether a path from `start` must keep out of hazards: always, except the way out of one the bot already stands in.
 */
export function avoidsHazards(terrain: Terrain, start: Cell): boolean {
  return !terrain.hazardous(start.x, start.y, start.z);
}

/**
 * A* over walkable cells from `start` to any cell satisfying `goal`, exploring at most `maxNodes` cells.
 * As mineflayer-pathfinder with verbtree's Movements: never into or through lava, fire or onto magma,
 * and no fall deeper than a safe one; from inside a hazard, hazard cells cost HAZARD_ESCAPE_COST extra.
 */
export function findPath(terrain: Terrain, start: Cell, goal: NavigationGoal, maxNodes: number): PathResult {
  const avoid = avoidsHazards(terrain, start);
  const nodes = new Map<number, SearchNode>();
  const open = new OpenSet();
  let order = 0;
  const startH = goalHeuristic(goal, start.x, start.y, start.z);
  const first: SearchNode = { cell: start, g: 0, h: startH, f: startH, order: order++, parent: null, closed: false };
  let closest = first;
  nodes.set(cellKey(start.x, start.y, start.z), first);
  open.push(first);
  let explored = 0;
  while (open.size > 0) {
    const node = open.pop()!;
    if (node.closed) continue;
    node.closed = true;
    const { x, y, z } = node.cell;
    if (goalSatisfied(goal, x, y, z)) return { status: 'found', path: unwind(node), explored };
    if (node.h < closest.h) closest = node;
    if (++explored > maxNodes)
      return { status: 'timeout', explored, partial: unwind(closest), partialHeuristic: closest.h };
    for (const [dx, dz] of DIRECTIONS) {
      const next = terrain.step(x, y, z, dx, dz, true, avoid);
      if (!next) continue;
      const key = cellKey(next.x, next.y, next.z);
      const hazard = !avoid && terrain.hazardous(next.x, next.y, next.z) ? HAZARD_ESCAPE_COST : 0;
      const g = node.g + 1 + (next.y > y ? JUMP_COST : 0) + hazard;
      const known = nodes.get(key);
      if (known && (known.closed || known.g <= g)) continue;
      // The cheaper route replaces the queued one; marking it closed makes the heap skip the stale entry.
      if (known) known.closed = true;
      const h = goalHeuristic(goal, next.x, next.y, next.z);
      const fresh: SearchNode = { cell: next, g, h, f: g + h, order: order++, parent: node, closed: false };
      nodes.set(key, fresh);
      open.push(fresh);
    }
  }
  return { status: 'noPath', explored };
}

function unwind(end: SearchNode): Cell[] {
  const path: Cell[] = [];
  for (let node: SearchNode | null = end; node?.parent; node = node.parent) path.push(node.cell);
  return path.reverse();
}
