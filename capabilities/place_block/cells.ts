import type { Vec3Like } from 'verbtree';

/** Blocks a placement simply overwrites, as the game does. */
const REPLACEABLE_BLOCKS: ReadonlySet<string> = new Set([
  'air',
  'cave_air',
  'void_air',
  'water',
  'lava',
  'short_grass',
  'tall_grass',
  'fern',
  'large_fern',
  'dead_bush',
  'seagrass',
  'tall_seagrass',
  'snow',
  'vine',
  'glow_lichen',
  'fire',
  'soul_fire',
  'structure_void',
  'light',
]);

export function isReplaceable(name: string): boolean {
  return REPLACEABLE_BLOCKS.has(name);
}

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

/** True when `cell` is the block the bot's feet or head are in; the server refuses to place there. */
export function occupiedByBot(cell: Vec3Like, botPosition: Vec3Like): boolean {
  const feetY = Math.floor(botPosition.y);
  return (
    cell.x === Math.floor(botPosition.x) &&
    cell.z === Math.floor(botPosition.z) &&
    (cell.y === feetY || cell.y === feetY + 1)
  );
}

export function describePosition({ x, y, z }: Vec3Like): string {
  return `(${x}, ${y}, ${z})`;
}
