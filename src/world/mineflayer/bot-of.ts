import type { Bot } from 'mineflayer';
import type { BotHandle } from './bot-handle.js';
import type { MineflayerWorld } from './mineflayer-world.js';

/** The mineflayer bot behind a world, typed as mineflayer's `Bot`. */
export function botOf(world: MineflayerWorld<BotHandle>): Bot {
  return world.bot as unknown as Bot;
}
