import minecraftData from 'minecraft-data';
import { z } from 'zod';
import { MINECRAFT_VERSION } from '../world/recipes.js';

const data = minecraftData(MINECRAFT_VERSION);
const named = (test: (name: string) => boolean) => Object.keys(data.blocksByName).filter(test).sort();

/** The block tags a planner may name (vanilla's tags, as far as gathering needs them). */
export const BLOCK_TAGS: Readonly<Record<string, readonly string[]>> = {
  '#logs': named((name) => name.endsWith('_log') && !name.startsWith('stripped_')),
  '#stone': ['stone', 'deepslate'],
  '#coal_ores': ['coal_ore', 'deepslate_coal_ore'],
  '#iron_ores': ['iron_ore', 'deepslate_iron_ore'],
};

/** The blocks a name or tag stands for; null when it is neither a known block nor a tag. */
export function blocksFor(block: string): readonly string[] | null {
  if (block.startsWith('#')) return BLOCK_TAGS[block] ?? null;
  return data.blocksByName[block] ? [block] : null;
}

/** A block name or one of the tags gathering knows, refused with the tags named. */
export const BlockOrTag = z
  .string()
  .min(1)
  .refine((name) => blocksFor(name) !== null, {
    error: (issue) =>
      `"${String(issue.input)}" is neither a block nor a tag; give a block name such as "oak_log", or one of ${Object.keys(BLOCK_TAGS).join(', ')}`,
  });

/** What digging any of `blocks` with the right tool puts in the pack (oak_log → oak_log, stone → cobblestone). */
export function dropItemsOf(blocks: readonly string[]): string[] {
  const items = new Set<string>();
  for (const block of blocks) {
    for (const drop of data.blocksByName[block]?.drops ?? []) {
      const id = typeof drop === 'number' ? drop : (drop as { drop: number }).drop;
      const item = data.items[id]?.name;
      if (item) items.add(item);
    }
  }
  return [...items].sort();
}

/** The cheapest tool that makes `block` drop anything, or null when the bare hand does. */
export function harvestToolFor(block: string): string | null {
  const tools = data.blocksByName[block]?.harvestTools;
  if (!tools) return null;
  const names = Object.keys(tools)
    .map((id) => data.items[Number(id)]?.name)
    .filter((name): name is string => name !== undefined);
  const order = ['wooden_', 'stone_', 'iron_', 'golden_', 'diamond_', 'netherite_'];
  names.sort((a, b) => order.findIndex((p) => a.startsWith(p)) - order.findIndex((p) => b.startsWith(p)));
  return names[0] ?? null;
}

/** True when the pack holds a tool that makes `block` drop. */
export function canHarvestWith(block: string, inventory: Readonly<Record<string, number>>): boolean {
  const tools = data.blocksByName[block]?.harvestTools;
  if (!tools) return true;
  return Object.keys(tools).some((id) => (inventory[data.items[Number(id)]?.name ?? ''] ?? 0) > 0);
}

/**
 * The blocks whose every drop is `item` and nothing else (cobblestone ← stone, cobblestone;
 * raw_iron ← iron_ore, deepslate_iron_ore): digging any of them gains exactly that item.
 */
export function blocksDropping(item: string): string[] {
  return Object.keys(data.blocksByName)
    .filter((block) => {
      const drops = dropItemsOf([block]);
      return drops.length === 1 && drops[0] === item;
    })
    .sort();
}

/**
 * What collect_block is asked for to gain `item`: a tag when all of its blocks drop
 * only that item, else the nearest such block `nearest` finds; null when none is near.
 */
export function gatherSourceFor(item: string, nearest: (blocks: readonly string[]) => string | null): string | null {
  const sources = blocksDropping(item);
  if (sources.length === 0) return null;
  const tag = Object.entries(BLOCK_TAGS).find(([, blocks]) => blocks.every((block) => sources.includes(block)));
  const block = nearest(tag ? tag[1] : sources);
  if (block === null) return null;
  return tag ? tag[0] : block;
}
