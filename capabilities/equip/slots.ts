type ArmorSlot = 'head' | 'torso' | 'legs' | 'feet';

const FITS: Record<ArmorSlot, (item: string) => boolean> = {
  head: (item) =>
    item.endsWith('_helmet') || item.endsWith('_head') || item.endsWith('_skull') || item === 'carved_pumpkin',
  torso: (item) => item.endsWith('_chestplate') || item === 'elytra',
  legs: (item) => item.endsWith('_leggings'),
  feet: (item) => item.endsWith('_boots'),
};

/** Hands take anything; an armor slot only what the game lets a player wear there. */
export function fitsDestination(item: string, destination: string): boolean {
  return destination in FITS ? FITS[destination as ArmorSlot](item) : true;
}
