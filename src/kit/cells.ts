import type { Vec3Like } from '../contracts/index.js';

/** Blocks a placement simply overwrites, as the game does. */
export const REPLACEABLE_BLOCKS: ReadonlySet<string> = new Set([
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

/** True when placing a block at a cell holding `name` overwrites it (air, water, grass, snow, …). */
export function isReplaceable(name: string): boolean {
  return REPLACEABLE_BLOCKS.has(name);
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
