import minecraftData from 'minecraft-data';
import { MINECRAFT_VERSION } from '../world/recipes.js';

const data = minecraftData(MINECRAFT_VERSION);

/**
 * How well `item` breaks `block`: harvesting (the block drops) first, then dig speed (vanilla material multipliers).
 */
function score(block: string, item: string | null): number {
  const info = data.blocksByName[block];
  const id = item === null ? undefined : data.itemsByName[item]?.id;
  if (!info) return 0;
  const harvests = !info.harvestTools || (id !== undefined && info.harvestTools[id] === true);
  let speed = 1;
  for (const part of (info.material ?? '').split(';')) {
    const multiplier = id === undefined ? undefined : data.materials[part]?.[id];
    if (multiplier !== undefined && multiplier > speed) speed = multiplier;
  }
  return (harvests ? 1000 : 0) + speed;
}

/** The inventory item that breaks `block` best, or null when none beats what the hand holds now. */
export function betterTool(
  block: string,
  held: string | null,
  inventory: Readonly<Record<string, number>>,
): string | null {
  let best: string | null = null;
  let bestScore = score(block, held);
  for (const [item, count] of Object.entries(inventory)) {
    if (count < 1 || item === held) continue;
    const candidate = score(block, item);
    if (candidate > bestScore) [best, bestScore] = [item, candidate];
  }
  return best;
}
