import { open, rename } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Item as ItemInstance } from 'prismarine-item';
import { z } from 'zod';

/*
 * The save point of an embedded world kept in a folder: one JSON file that
 * says what the world was at one instant. It names the chunk files that hold
 * the blocks (chunk-files.ts: each file written once, never overwritten) and
 * holds what a vanilla server saves beside its chunks:
 * players, dropped items, containers and furnaces, mobs, the time of day.
 * A save writes its chunk files, then this file under a temporary name, and
 * renames it into place: a kill at any moment leaves either the previous save
 * point or the new one, whole.
 */

export const SAVE_FILE = 'verbtree-save.json';
export const SAVE_FORMAT = 1;

const Point = z.strictObject({ x: z.number(), y: z.number(), z: z.number() });
const Cell = z.strictObject({ x: z.int(), y: z.int(), z: z.int() });

/** An item in a numbered slot of a window (a player's inventory window, a chest's, a furnace's). */
export const SavedItem = z.strictObject({
  slot: z.int().min(0),
  name: z.string().min(1),
  count: z.int().min(1),
  nbt: z.unknown().optional(),
});
export type SavedItem = z.infer<typeof SavedItem>;

/** A slot's item as a save keeps it; null for an empty slot. */
export function savedItem(item: ItemInstance | null | undefined, slot: number): SavedItem | null {
  if (!item || item.count < 1) return null;
  return { slot, name: item.name, count: item.count, ...(item.nbt ? { nbt: item.nbt } : {}) };
}

export const SavedPlayer = z.strictObject({
  uuid: z.string().min(1),
  username: z.string().min(1),
  position: Point,
  yaw: z.number(),
  pitch: z.number(),
  health: z.number(),
  food: z.number(),
  saturation: z.number(),
  heldItemSlot: z.int(),
  gameMode: z.int(),
  xp: z.number(),
  /** The inventory window's slots 5..45 (armour, pack, hotbar, off hand), as they are once every open window is closed. */
  inventory: z.array(SavedItem),
});
export type SavedPlayer = z.infer<typeof SavedPlayer>;

export const SavedDrop = z.strictObject({
  id: z.int(),
  name: z.string().min(1),
  count: z.int().min(1),
  position: Point,
  velocity: Point,
  /** How long it had lain in the world: its pickup delay and despawn count from its birth. */
  ageMs: z.number().min(0),
  pickupDelayMs: z.number().optional(),
  despawnMs: z.number().optional(),
});
export type SavedDrop = z.infer<typeof SavedDrop>;

export const SavedContainer = z.strictObject({
  at: Cell,
  kind: z.enum(['chest', 'furnace']),
  slots: z.array(SavedItem),
  /** A furnace's heat left in ticks, the whole burn of the item lit, and the current item's cooking. */
  burnLeft: z.int().min(0),
  burnTotal: z.int().min(0),
  cooked: z.int().min(0),
});
export type SavedContainer = z.infer<typeof SavedContainer>;

export const SavedMob = z.strictObject({
  id: z.int(),
  uuid: z.string(),
  name: z.string().min(1),
  position: Point,
  yaw: z.number(),
  pitch: z.number(),
  health: z.number(),
  /** A scenario mob with `ai: false`: it stands where it is put. */
  still: z.literal(true).optional(),
});
export type SavedMob = z.infer<typeof SavedMob>;

export const SaveFile = z.strictObject({
  format: z.literal(SAVE_FORMAT),
  /** Counts the saves; a save's chunk files carry its number. */
  seq: z.int().min(1),
  /** When the world was captured (epoch ms): everything that happened before is in this save. */
  savedAt: z.number(),
  time: z.number(),
  /** Chunk column "x,z" → its file in chunks/. A column not named is the generator's. */
  columns: z.record(z.string(), z.string()),
  players: z.array(SavedPlayer),
  drops: z.array(SavedDrop),
  containers: z.array(SavedContainer),
  mobs: z.array(SavedMob),
});
export type SaveFile = z.infer<typeof SaveFile>;

/** The folder's save point; null when it holds none. A save that is not one verbtree can read fails naming the field. */
export function readSaveFile(folder: string): SaveFile | null {
  let text: string;
  try {
    text = readFileSync(join(folder, SAVE_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  return parseSave(folder, text);
}

function parseSave(folder: string, text: string): SaveFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new Error(
      `${join(folder, SAVE_FILE)} is not JSON (${(error as Error).message}); the world folder is damaged`,
      { cause: error },
    );
  }
  const parsed = SaveFile.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new Error(
    `${join(folder, SAVE_FILE)} is not a save this verbtree can read: ${issue.path.join('.') || '(root)'}: ${issue.message}`,
  );
}

/** Writes `body` to `path` durably: a temporary file, flushed to disk, renamed over the old one. */
export async function writeFileAtomically(path: string, body: string | Uint8Array): Promise<void> {
  const temporary = `${path}.tmp`;
  const handle = await open(temporary, 'w');
  try {
    await handle.writeFile(body);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, path);
}

export function writeSaveFile(folder: string, save: SaveFile): Promise<void> {
  return writeFileAtomically(join(folder, SAVE_FILE), JSON.stringify(save));
}
