/** Cheap, solid, non-falling blocks a bot may spend on a shelter (a pillar, a wall, a cover), most expendable first. */
export const BUILDING_BLOCKS = [
  'dirt',
  'cobblestone',
  'netherrack',
  'cobbled_deepslate',
  'stone',
  'oak_planks',
  'spruce_planks',
  'birch_planks',
  'jungle_planks',
  'acacia_planks',
  'dark_oak_planks',
  'mangrove_planks',
  'cherry_planks',
  'deepslate',
  'andesite',
  'diorite',
  'granite',
] as const;

/**
 * The most blocks of one building block the bot holds: what a pillar or a wall can be built of, for they are built of
 * one kind (chooseBuildingBlock). Two planks and a dirt are no pillar of three.
 */
export function shelterBlockCount(inventory: Readonly<Record<string, number>>): number {
  return BUILDING_BLOCKS.reduce((most, name) => Math.max(most, inventory[name] ?? 0), 0);
}

/** Whether `item` is one of the BUILDING_BLOCKS. */
export function isBuildingBlock(item: string): boolean {
  return (BUILDING_BLOCKS as readonly string[]).includes(item);
}

/** The first building block held in at least `count`, or else the one held most (null when none is held). */
export function chooseBuildingBlock(inventory: Readonly<Record<string, number>>, count: number): string | null {
  const enough = BUILDING_BLOCKS.find((name) => (inventory[name] ?? 0) >= count);
  if (enough) return enough;
  let best: string | null = null;
  for (const name of BUILDING_BLOCKS) if ((inventory[name] ?? 0) > (best ? (inventory[best] ?? 0) : 0)) best = name;
  return best;
}

/**
 * Every block the bot may place to climb out of a hole, by how many it holds, most expendable first: the building
 * blocks, then logs, which place as solid as planks (they are the planks to come, spent only when nothing else is
 * left). A hole dug through grass, dirt and stone leaves one dirt and one cobblestone after its cover: two blocks to
 * climb on, though no single kind counts two.
 */
export function climbingBlocks(inventory: Readonly<Record<string, number>>): [string, number][] {
  const held = (name: string) => (inventory[name] ?? 0) > 0;
  const logs = Object.keys(inventory)
    .filter((name) => name.endsWith('_log') && held(name))
    .sort();
  return [...BUILDING_BLOCKS.filter(held), ...logs].map((name) => [name, inventory[name]!]);
}

/** How many blocks the bot holds to climb on (climbingBlocks). */
export function climbingBlockCount(inventory: Readonly<Record<string, number>>): number {
  return climbingBlocks(inventory).reduce((sum, [, count]) => sum + count, 0);
}
