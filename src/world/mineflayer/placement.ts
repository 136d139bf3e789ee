import type { Bot } from 'mineflayer';
import type { Block } from 'prismarine-block';
import { Vec3 } from 'vec3';
import { blockKey, type Vec3Like } from '../../contracts/world.js';
import { isUsedOnClick } from '../activation.js';

/** Half the width of a player's bounding box. */
const HALF_WIDTH = 0.3;
const HEIGHT = 1.8;
const REPLACEABLE = new Set([
  'air',
  'cave_air',
  'void_air',
  'water',
  'lava',
  'short_grass',
  'tall_grass',
  'fern',
  'snow',
]);

/** Faces to place against, most natural first: the block below, the sides, then above. */
const NEIGHBOURS = [
  new Vec3(0, -1, 0),
  new Vec3(1, 0, 0),
  new Vec3(-1, 0, 0),
  new Vec3(0, 0, 1),
  new Vec3(0, 0, -1),
  new Vec3(0, 1, 0),
];

export interface Placement {
  reference: Block;
  /** From the reference block to the target. */
  face: Vec3;
  itemId: number;
}

/**
 * Why the bot cannot place `item` at `position`, or how to place it. The server
 * silently refuses a block in the space the bot occupies and mineflayer then
 * waits 5 s for an update that never comes, so that case is caught here.
 */
export function placementProblem(bot: Bot, position: Vec3Like, item: string): string | Placement {
  const target = new Vec3(Math.floor(position.x), Math.floor(position.y), Math.floor(position.z));
  const where = blockKey(target);
  const held = bot.inventory.items().find((candidate) => candidate.name === item);
  if (!held) return `cannot place ${item} at ${where}: none in the inventory`;
  if (!bot.registry.blocksByName[item]) return `cannot place ${item}: it is not a block`;
  if (intersectsBot(bot, target))
    return `cannot place ${item} at ${where}: the bot is standing in that space; move away first`;
  const current = bot.blockAt(target);
  if (!current) return `cannot place ${item} at ${where}: that chunk is not loaded; move closer first`;
  if (!REPLACEABLE.has(current.name)) return `cannot place ${item} at ${where}: ${current.name} is already there`;
  for (const offset of NEIGHBOURS) {
    const reference = bot.blockAt(target.plus(offset));
    if (reference && reference.boundingBox === 'block' && !isUsedOnClick(reference.name)) {
      if (bot.entity.position.offset(0, bot.entity.height, 0).distanceTo(target.offset(0.5, 0.5, 0.5)) > 5) {
        return `cannot place ${item} at ${where}: out of reach; navigate within 4 blocks first`;
      }
      return { reference, face: offset.scaled(-1), itemId: held.type };
    }
  }
  return `cannot place ${item} at ${where}: no solid block next to it to place against (a table, furnace, chest or door opens when clicked)`;
}

function intersectsBot(bot: Bot, block: Vec3): boolean {
  const { x, y, z } = bot.entity.position;
  return (
    x + HALF_WIDTH > block.x &&
    x - HALF_WIDTH < block.x + 1 &&
    y + HEIGHT > block.y &&
    y < block.y + 1 &&
    z + HALF_WIDTH > block.z &&
    z - HALF_WIDTH < block.z + 1
  );
}
