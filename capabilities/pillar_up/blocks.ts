/** Cheap, solid, non-falling blocks a bot may spend on a pillar, most expendable first. */
export const PILLAR_BLOCKS = [
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

/** The first pillar block held in at least `height`, or else the one held most (null when none is held). */
export function choosePillarBlock(inventory: Readonly<Record<string, number>>, height: number): string | null {
  const enough = PILLAR_BLOCKS.find((name) => (inventory[name] ?? 0) >= height);
  if (enough) return enough;
  let best: string | null = null;
  for (const name of PILLAR_BLOCKS) if ((inventory[name] ?? 0) > (best ? (inventory[best] ?? 0) : 0)) best = name;
  return best;
}
