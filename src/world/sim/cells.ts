import type { Vec3Like } from '../../contracts/world.js';
import type { Cell } from './terrain.js';

export function toCell(position: Vec3Like): Cell {
  return { x: Math.floor(position.x), y: Math.floor(position.y), z: Math.floor(position.z) };
}

export function cellText(cell: Cell): string {
  return `${cell.x},${cell.y},${cell.z}`;
}

/** A point to one decimal, as an actuator's log names where the bot looked. */
export function pointText(point: Vec3Like): string {
  return `${point.x.toFixed(1)},${point.y.toFixed(1)},${point.z.toFixed(1)}`;
}

/** Every cell of the box spanned by two corners (inclusive), in x, y, z order. */
export function* cellsOfBox(from: Vec3Like, to: Vec3Like): Generator<Cell> {
  const [x0, x1] = span(from.x, to.x);
  const [y0, y1] = span(from.y, to.y);
  const [z0, z1] = span(from.z, to.z);
  for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) for (let z = z0; z <= z1; z++) yield { x, y, z };
}

function span(a: number, b: number): [number, number] {
  return [Math.floor(Math.min(a, b)), Math.floor(Math.max(a, b))];
}
