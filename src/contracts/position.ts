import { z } from 'zod';

const WORLD_LIMIT = 30_000_000;

const horizontal = z.int().min(-WORLD_LIMIT).max(WORLD_LIMIT);
const vertical = z.int().min(-64).max(320);

/** A block coordinate inside Minecraft's world bounds. */
export const BlockPosition = z.strictObject({ x: horizontal, y: vertical, z: horizontal });
export type BlockPosition = z.infer<typeof BlockPosition>;

export const Coordinate = { horizontal, vertical } as const;

/** A Minecraft item or block name such as "oak_log" (no namespace). */
export const ItemName = z
  .string()
  .regex(/^[a-z0-9_]+$/, 'must be a Minecraft item name such as "oak_log" (lower case, no "minecraft:" prefix)')
  .max(64);
