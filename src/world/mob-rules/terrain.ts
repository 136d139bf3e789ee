import minecraftData from 'minecraft-data';
import type { Vec3Like } from '../../contracts/world.js';
import { isBodyHazard, isFloorHazard } from '../hazards.js';
import { MINECRAFT_VERSION } from '../recipes.js';

const data = minecraftData(MINECRAFT_VERSION);

/** The highest cell a sky check looks through (the build limit). */
const BUILD_TOP = 319;

/** What a mob knows of the world's blocks: both worlds read theirs through this. */
export interface MobTerrain {
  /** The block's name at a cell, or null where the world holds nothing loaded (a mob treats it as a wall). */
  block(x: number, y: number, z: number): string | null;
}

/** Where a mob is: its feet, which the rules move in place. */
export interface Position {
  x: number;
  y: number;
  z: number;
}

export interface Cell {
  x: number;
  y: number;
  z: number;
}

export function cellOf(position: Vec3Like): Cell {
  return { x: Math.floor(position.x), y: Math.floor(position.y), z: Math.floor(position.z) };
}

/** A full collision box: walked on, walked into, and seen through by no mob (vanilla's sight clips on colliders). */
export function blocksMovement(name: string | null): boolean {
  return name === null || data.blocksByName[name]?.boundingBox === 'block';
}

/** Where a walking mob never puts its body: fire, lava, and water (swimming is not modelled). */
function avoided(name: string): boolean {
  return isBodyHazard(name) || name === 'water';
}

/** Whether a body can be in this cell: nothing solid, nothing burning, no water. */
export function open(terrain: MobTerrain, x: number, y: number, z: number): boolean {
  const name = terrain.block(x, y, z);
  return !blocksMovement(name) && !avoided(name!);
}

/** Feet and head cells open, solid ground under the feet that does not burn (no magma, no campfire). */
export function canStand(terrain: MobTerrain, x: number, y: number, z: number): boolean {
  return hasFloor(terrain, x, y, z) && open(terrain, x, y, z) && open(terrain, x, y + 1, z);
}

/** Solid ground under the cell that does not burn. */
export function hasFloor(terrain: MobTerrain, x: number, y: number, z: number): boolean {
  const floor = terrain.block(x, y - 1, z);
  return blocksMovement(floor) && floor !== null && !isFloorHazard(floor);
}

/**
 * Whether the sky shows above a cell: every block up to the build limit lets sky light through unfiltered (air, glass;
 * leaves and water dim it), as vanilla's canSeeSky asks for sky light 15 there.
 */
export function skyOpenAbove(terrain: MobTerrain, cell: Cell): boolean {
  for (let y = cell.y; y <= BUILD_TOP; y++) {
    const name = terrain.block(cell.x, y, cell.z);
    if (name === null) return true;
    if ((data.blocksByName[name]?.filterLight ?? 15) > 0) return false;
  }
  return true;
}

export function inWater(terrain: MobTerrain, position: Vec3Like): boolean {
  const { x, y, z } = cellOf(position);
  return terrain.block(x, y, z) === 'water';
}

/**
 * Whether the straight line between two points crosses no block with a collision box (vanilla's
 * Mob.hasLineOfSight, eyes to eyes, clipping on colliders): a voxel walk over the cells it passes through.
 */
export function lineOfSight(terrain: MobTerrain, from: Vec3Like, to: Vec3Like): boolean {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const dz = to.z - from.z;
  let [x, y, z] = [Math.floor(from.x), Math.floor(from.y), Math.floor(from.z)];
  const [endX, endY, endZ] = [Math.floor(to.x), Math.floor(to.y), Math.floor(to.z)];
  const axis = (delta: number, start: number, cell: number) => {
    const step = Math.sign(delta);
    if (step === 0) return { step, next: Infinity, each: Infinity };
    const boundary = step > 0 ? cell + 1 : cell;
    return { step, next: (boundary - start) / delta, each: Math.abs(1 / delta) };
  };
  const ax = axis(dx, from.x, x);
  const ay = axis(dy, from.y, y);
  const az = axis(dz, from.z, z);
  for (let guard = 0; guard < 1024; guard++) {
    if (x === endX && y === endY && z === endZ) return true;
    if (blocksMovement(terrain.block(x, y, z)) && guard > 0) return false;
    if (ax.next <= ay.next && ax.next <= az.next) {
      if (ax.next > 1) return true;
      x += ax.step;
      ax.next += ax.each;
    } else if (ay.next <= az.next) {
      if (ay.next > 1) return true;
      y += ay.step;
      ay.next += ay.each;
    } else {
      if (az.next > 1) return true;
      z += az.step;
      az.next += az.each;
    }
  }
  return false;
}
