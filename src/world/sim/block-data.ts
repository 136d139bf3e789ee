import minecraftData from 'minecraft-data';
import { miningMaterial } from '../mining-speed.js';
import { MINECRAFT_VERSION } from '../recipes.js';

const data = minecraftData(MINECRAFT_VERSION);
const TICK_MS = 50;

export const AIR = 'air';

export function isKnownBlock(name: string): boolean {
  return data.blocksByName[name] !== undefined;
}

export function isKnownItem(name: string): boolean {
  return data.itemsByName[name] !== undefined;
}

/** Whether a body can occupy the block's cell (air, grass tufts, water...). */
export function isPassable(name: string): boolean {
  return data.blocksByName[name]?.boundingBox !== 'block';
}

/** Whether any tool can break the block in vanilla Minecraft (false for bedrock, barrier, air). */
export function isVanillaDiggable(name: string): boolean {
  const block = data.blocksByName[name];
  return block !== undefined && block.diggable && block.hardness !== null && block.hardness >= 0;
}

function heldItemId(held: string | null): number | undefined {
  return held === null ? undefined : data.itemsByName[held]?.id;
}

function canHarvest(name: string, held: string | null): boolean {
  const tools = data.blocksByName[name]?.harvestTools;
  if (!tools) return true;
  const id = heldItemId(held);
  return id !== undefined && tools[id] === true;
}

function toolSpeed(name: string, held: string | null): number {
  const block = data.blocksByName[name];
  const id = heldItemId(held);
  if (!block || id === undefined) return 1;
  let speed = 1;
  for (const part of (miningMaterial(block.material) ?? '').split(';')) {
    const multiplier = data.materials[part]?.[id];
    if (multiplier !== undefined && multiplier > speed) speed = multiplier;
  }
  return speed;
}

/** Vanilla dig time in ms (whole ticks, at least one) for the held item; Infinity for unbreakable blocks. */
export function digTimeMs(name: string, held: string | null): number {
  const hardness = data.blocksByName[name]?.hardness ?? -1;
  if (hardness === null || hardness < 0) return Number.POSITIVE_INFINITY;
  if (hardness === 0) return TICK_MS;
  const damagePerTick = toolSpeed(name, held) / hardness / (canHarvest(name, held) ? 30 : 100);
  return Math.max(1, Math.ceil(1 / damagePerTick)) * TICK_MS;
}

/** Item names the block drops when dug with `held`; none without the right harvest tool, as in vanilla. */
export function dropsOf(name: string, held: string | null): string[] {
  if (!canHarvest(name, held)) return [];
  return (data.blocksByName[name]?.drops ?? []).map((id) => {
    const item = data.items[typeof id === 'number' ? id : (id as { drop: number }).drop];
    return item ? item.name : name;
  });
}

export function isPlaceableItem(item: string): boolean {
  return item !== AIR && data.blocksByName[item] !== undefined && data.itemsByName[item] !== undefined;
}

/** What eating `item` restores (minecraft-data's food points and saturation), or undefined when it is not food. */
export function foodOf(item: string): { foodPoints: number; saturation: number } | undefined {
  const food = data.foodsByName[item];
  return food && { foodPoints: food.foodPoints, saturation: food.saturation };
}
