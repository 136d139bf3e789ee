import minecraftData from 'minecraft-data';
import type { BlockInfo, Vec3Like } from '../contracts/world.js';
import { MINECRAFT_VERSION } from './recipes.js';

/**
 * Blocks that hurt a body inside them, and how much (health points every
 * HAZARD_DAMAGE_INTERVAL_MS, as vanilla deals them every ten ticks). Both worlds
 * use this table: SimWorld deals the damage itself, the embedded server through
 * its hazard plugin, and both path searches refuse to enter these cells.
 */
export const HAZARD_BODY_DAMAGE: Readonly<Record<string, number>> = { lava: 4, fire: 1, soul_fire: 2 };

/** Solid blocks that hurt a body standing on them; path searches never end a move on one. */
export const HAZARD_FLOOR_DAMAGE: Readonly<Record<string, number>> = { magma_block: 1, campfire: 1, soul_campfire: 2 };

export const HAZARD_DAMAGE_INTERVAL_MS = 500;

/**
 * A path that starts in a hazard may cross hazard cells (it is the only way out),
 * each costing this much more than a step, so the search leaves by the fewest.
 * Below pathfinder's cut-off of 100 per move.
 */
export const HAZARD_ESCAPE_COST = 40;

const data = minecraftData(MINECRAFT_VERSION);

export function isBodyHazard(name: string): boolean {
  return Object.hasOwn(HAZARD_BODY_DAMAGE, name);
}

export function isFloorHazard(name: string): boolean {
  return Object.hasOwn(HAZARD_FLOOR_DAMAGE, name);
}

/** Whether the block has a full collision box (a floor to stand on, a wall to walk into). */
export function isSolidBlock(name: string): boolean {
  return data.blocksByName[name]?.boundingBox === 'block';
}

/** The damage a body with feet in `feet`, head in `head`, standing on `floor` takes per interval (0 when safe). */
export function hazardDamage(feet: string, head: string, floor: string): number {
  return Math.max(HAZARD_BODY_DAMAGE[feet] ?? 0, HAZARD_BODY_DAMAGE[head] ?? 0, HAZARD_FLOOR_DAMAGE[floor] ?? 0);
}

type BlockAt = (position: Vec3Like) => Pick<BlockInfo, 'name'> | null;

/**
 * What hurts a bot whose feet are in the block cell `feet`: "in lava at 5,4,0" or "on magma_block at 1,4,2"; null when
 * nothing does.
 */
export function describeHazardAt(
  blockAt: BlockAt,
  feet: Vec3Like,
  hazards: (name: string) => boolean = isBodyOrFloorHazard,
): string | null {
  const cell = { x: Math.floor(feet.x), y: Math.floor(feet.y), z: Math.floor(feet.z) };
  for (const [dy, where] of [
    [0, 'in'],
    [1, 'in'],
    [-1, 'on'],
  ] as const) {
    const name = blockAt({ x: cell.x, y: cell.y + dy, z: cell.z })?.name;
    if (name !== undefined && hazards(name)) return `${where} ${name} at ${cell.x},${cell.y + dy},${cell.z}`;
  }
  return null;
}

function isBodyOrFloorHazard(name: string): boolean {
  return isBodyHazard(name) || isFloorHazard(name);
}

/**
 * The closest cell (by straight-line distance from `from`, ties in a fixed order) within
 * `radius` blocks horizontally and one block up or down, where a bot can stand unhurt:
 * solid floor, room for feet and head, nothing in `hazards` there. Null when none is in reach.
 */
export function nearestSafeCell(
  blockAt: BlockAt,
  from: Vec3Like,
  radius: number,
  hazards: (name: string) => boolean = isBodyOrFloorHazard,
): Vec3Like | null {
  const origin = { x: Math.floor(from.x), y: Math.floor(from.y), z: Math.floor(from.z) };
  const candidates: { cell: Vec3Like; distance: number }[] = [];
  for (let dx = -radius; dx <= radius; dx++) {
    for (let dz = -radius; dz <= radius; dz++) {
      for (const dy of [0, 1, -1]) {
        const cell = { x: origin.x + dx, y: origin.y + dy, z: origin.z + dz };
        const distance = Math.hypot(cell.x + 0.5 - from.x, cell.y - from.y, cell.z + 0.5 - from.z);
        if (distance <= radius + 0.5) candidates.push({ cell, distance });
      }
    }
  }
  candidates.sort((a, b) => a.distance - b.distance);
  const name = (x: number, y: number, z: number) => blockAt({ x, y, z })?.name ?? null;
  for (const { cell } of candidates) {
    const [floor, feet, head] = [
      name(cell.x, cell.y - 1, cell.z),
      name(cell.x, cell.y, cell.z),
      name(cell.x, cell.y + 1, cell.z),
    ];
    if (floor === null || feet === null || head === null) continue;
    if (!isSolidBlock(floor) || isSolidBlock(feet) || isSolidBlock(head)) continue;
    if (hazards(floor) || hazards(feet) || hazards(head)) continue;
    return cell;
  }
  return null;
}
