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

/** The first building block held in at least `count`, or else the one held most (null when none is held). */
export function chooseBuildingBlock(inventory: Readonly<Record<string, number>>, count: number): string | null {
  const enough = BUILDING_BLOCKS.find((name) => (inventory[name] ?? 0) >= count);
  if (enough) return enough;
  let best: string | null = null;
  for (const name of BUILDING_BLOCKS) if ((inventory[name] ?? 0) > (best ? (inventory[best] ?? 0) : 0)) best = name;
  return best;
}
