import { z } from 'zod';
import type { EntityInfo, EntityKind, Observation, Vec3Like, WorldPort } from '../contracts/world.js';

/** A view reaches at most this far from the bot sideways and up or down: 65 x 65 x 49 cells, about 200k reads. */
export const MAX_VIEW_RADIUS = 32;
export const MAX_VIEW_HEIGHT = 24;
/** A cell the world did not answer for (blockAt null: not loaded), in `CapturedView.cells`. */
export const UNKNOWN_CELL = -1;

export const ViewBounds = z
  .object({
    radius: z
      .number({ error: 'radius must be a whole number of blocks, e.g. 16' })
      .int({ error: 'radius must be a whole number of blocks, e.g. 16' })
      .min(1, { error: 'radius must be at least 1 block' })
      .max(MAX_VIEW_RADIUS, { error: `radius must be at most ${MAX_VIEW_RADIUS} blocks; capture less around the bot` }),
    height: z
      .number({ error: 'height must be a whole number of blocks, e.g. 8' })
      .int({ error: 'height must be a whole number of blocks, e.g. 8' })
      .min(1, { error: 'height must be at least 1 block' })
      .max(MAX_VIEW_HEIGHT, {
        error: `height must be at most ${MAX_VIEW_HEIGHT} blocks above and below the bot; capture a thinner slice`,
      }),
  })
  .strict();
export type ViewBounds = z.infer<typeof ViewBounds>;

export class ViewBoundsError extends Error {
  override readonly name = 'ViewBoundsError';
}

/**
 * An entity as the bot saw it: a mob or player with its health and what the world showed of its state (after a
 * target, a creeper swelling and how far its fuse burnt, where the world says), or a drop with what lies there.
 */
export interface ViewEntity extends Pick<EntityInfo, 'swelling' | 'aggressive' | 'fuseTicks'> {
  /** Its id in the world it was seen in (a fork gives it an id of its own: ForkWorld.forkIdOf). */
  id: number;
  name: string;
  kind: EntityKind;
  position: Vec3Like;
  health: number | null;
  item?: { name: string; count: number };
}

/**
 * What the bot sees at one moment, as plain data (structured-clone-able, JSON-able): a box of cells around it,
 * each a palette index or UNKNOWN_CELL, its body and pack as an observation reports them, the time and the
 * entities in the box.
 */
export interface CapturedView extends Pick<Observation, 'position' | 'health' | 'food' | 'inventory' | 'heldItem'> {
  /** The box's lowest corner and its size in cells; cells run x, then y, then z (index = x + sx*(y + sy*z)). */
  origin: Vec3Like;
  size: Vec3Like;
  palette: string[];
  cells: number[];
  /** Block names the world said no tool breaks there (bedrock, and whatever a server protects). */
  undiggable: string[];
  /** Ticks into the day, or null when the world would not say. */
  timeOfDay: number | null;
  entities: ViewEntity[];
}

/** The cell index of a position in the view's box, or -1 outside it. */
export function viewIndex(box: Pick<CapturedView, 'origin' | 'size'>, x: number, y: number, z: number): number {
  const dx = x - box.origin.x;
  const dy = y - box.origin.y;
  const dz = z - box.origin.z;
  const { size } = box;
  if (dx < 0 || dy < 0 || dz < 0 || dx >= size.x || dy >= size.y || dz >= size.z) return -1;
  return dx + size.x * (dy + size.y * dz);
}

function checkBounds(bounds: unknown): ViewBounds {
  const parsed = ViewBounds.safeParse(bounds);
  if (parsed.success) return parsed.data;
  const why = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'bounds'}: ${issue.message}`);
  throw new ViewBoundsError(`captureView: ${why.join('; ')}`);
}

/**
 * Copies what `world` shows the bot now. Only reads: observations and blockAt, never an actuator. A cell the world
 * answers null for (not loaded) stays UNKNOWN_CELL; nothing is guessed.
 */
export async function captureView(world: WorldPort, bounds: ViewBounds): Promise<CapturedView> {
  const { radius, height } = checkBounds(bounds);
  const position = { ...world.position() };
  const origin = {
    x: Math.floor(position.x) - radius,
    y: Math.floor(position.y) - height,
    z: Math.floor(position.z) - radius,
  };
  const size = { x: 2 * radius + 1, y: 2 * height + 1, z: 2 * radius + 1 };
  const { palette, cells, undiggable } = captureCells(world, origin, size);
  const seen = world.entities().filter((entity) => viewIndex({ origin, size }, ...cellOf(entity.position)) >= 0);
  const observation = await world.observe({ time: true, entities: { ids: seen.map((entity) => entity.id) } });
  const healthOf = new Map((observation.entities ?? []).map((entity) => [entity.id, entity.health]));
  const entities = seen.map(({ id, name, kind, position: at, item, swelling, aggressive, fuseTicks }) => ({
    id,
    name,
    kind,
    position: { ...at },
    health: healthOf.get(id) ?? null,
    ...(item ? { item: { ...item } } : {}),
    ...(swelling === undefined ? {} : { swelling }),
    ...(aggressive === undefined ? {} : { aggressive }),
    ...(fuseTicks === undefined ? {} : { fuseTicks }),
  }));
  return {
    origin,
    size,
    palette,
    cells,
    undiggable,
    position,
    health: world.health(),
    food: world.food(),
    inventory: { ...world.inventory() },
    heldItem: world.heldItem(),
    timeOfDay: observation.timeOfDay ?? null,
    entities,
  };
}

function cellOf(position: Vec3Like): [number, number, number] {
  return [Math.floor(position.x), Math.floor(position.y), Math.floor(position.z)];
}

function captureCells(
  world: WorldPort,
  origin: Vec3Like,
  size: Vec3Like,
): { palette: string[]; cells: number[]; undiggable: string[] } {
  const palette: string[] = [];
  const indexOf = new Map<string, number>();
  const undiggable = new Set<string>();
  const cells: number[] = [];
  for (let dz = 0; dz < size.z; dz++)
    for (let dy = 0; dy < size.y; dy++)
      for (let dx = 0; dx < size.x; dx++) {
        const block = world.blockAt({ x: origin.x + dx, y: origin.y + dy, z: origin.z + dz });
        if (!block) {
          cells.push(UNKNOWN_CELL);
          continue;
        }
        let index = indexOf.get(block.name);
        if (index === undefined) {
          index = palette.push(block.name) - 1;
          indexOf.set(block.name, index);
        }
        if (!block.diggable) undiggable.add(block.name);
        cells.push(index);
      }
  return { palette, cells, undiggable: [...undiggable] };
}
