import type { Vec3Like } from 'verbtree';

export const NEIGHBOUR_OFFSETS: readonly Vec3Like[] = [
  { x: 0, y: -1, z: 0 },
  { x: 0, y: 1, z: 0 },
  { x: 1, y: 0, z: 0 },
  { x: -1, y: 0, z: 0 },
  { x: 0, y: 0, z: 1 },
  { x: 0, y: 0, z: -1 },
];

export function offset(position: Vec3Like, by: Vec3Like): Vec3Like {
  return { x: position.x + by.x, y: position.y + by.y, z: position.z + by.z };
}

export function describePosition({ x, y, z }: Vec3Like): string {
  return `(${x}, ${y}, ${z})`;
}
