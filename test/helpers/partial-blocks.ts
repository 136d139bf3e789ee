import minecraftData from 'minecraft-data';
import { isBodyHazard, isFloorHazard } from '../../src/world/hazards.js';
import { MINECRAFT_VERSION } from '../../src/world/recipes.js';
import { collisionHeight } from '../../src/world/stands-on.js';

/** A block with a collision top inside its cell, and that top (from minecraft-data's shapes, its default state). */
export interface PartialBlock {
  name: string;
  top: number;
}

const data = minecraftData(MINECRAFT_VERSION);

/**
 * Every block whose default state's collision top lies inside its cell, but not those that hurt a body standing there
 * (a walk onto them is refused as a hazard, by design): the class of ground the stand rule is tested over, in SimWorld
 * and on the embedded server alike.
 */
export const PARTIAL_BLOCKS: readonly PartialBlock[] = data.blocksArray
  .map((block) => ({ name: block.name, top: collisionHeight(block.name) }))
  .filter(({ name, top }) => top > 0 && top < 1 && !isFloorHazard(name) && !isBodyHazard(name));
