import type { Vec3Like } from '../../contracts/world.js';
import type { Cell } from './terrain.js';

export function toCell(position: Vec3Like): Cell {
  return { x: Math.floor(position.x), y: Math.floor(position.y), z: Math.floor(position.z) };
}

export function cellText(cell: Cell): string {
  return `${cell.x},${cell.y},${cell.z}`;
}
