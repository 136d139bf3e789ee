import type { Bot } from 'mineflayer';
import type { Block } from 'prismarine-block';
import { type Vec3Like, WorldError, blockKey } from '../../contracts/world.js';
import { miningMaterial } from '../mining-speed.js';
import { type BotContext, toVec3 } from './bot-context.js';
import type { Command } from './command-runner.js';
import { confirmBlock } from './confirm.js';
import { waitFor } from './wait-for.js';

export function startDig(context: BotContext, position: Vec3Like): Command {
  const { bot } = context;
  const block = bot.blockAt(toVec3(position));
  const where = blockKey(position);
  if (!block)
    throw new WorldError('precondition_missing', `cannot dig ${where}: that chunk is not loaded; move closer first`);
  if (block.name === 'air' || block.name === 'cave_air')
    throw new WorldError('precondition_missing', `cannot dig ${where}: there is no block (air)`);
  if (!block.diggable)
    throw new WorldError('precondition_missing', `cannot dig ${block.name} at ${where}: no tool can break it`);
  if (!bot.canDigBlock(block))
    throw new WorldError(
      'precondition_missing',
      `cannot dig ${block.name} at ${where}: out of reach; navigate within 4 blocks first`,
    );
  let cancelled = false;
  const done = landed(context).then(() => {
    if (cancelled) return;
    // (mineflayer's dig waits the time it computes at the start, and stops at once when cancelled.)
    return bot
      .dig(block, true)
      .then(() =>
        confirmBlock(context, position, (name) => name !== block.name, `${block.name} at ${where} to be gone`),
      );
  });
  return {
    done,
    cancel: () => {
      cancelled = true;
      bot.stopDigging();
    },
  };
}

/**
 * Makes mineflayer time digs by the game's tool speeds (see miningMaterial): its digTime reads the block's material
 * from minecraft-data, which has iron ore mined at hand speed with any pickaxe. The server takes the dig when the
 * client says it is finished, so the bot waited 4.55 s for an ore the game breaks in 1.15 s.
 */
export function useVanillaDigTime(bot: Bot): void {
  const digTime = bot.digTime.bind(bot);
  bot.digTime = (block) => {
    const material = miningMaterial(block.material);
    return digTime(material === block.material ? block : Object.assign(Object.create(block) as Block, { material }));
  };
}

/** How long a dig waits for the bot to land (a walk's last step down, a hop) before digging anyway. */
const LANDING_WAIT_MS = 1500;

/**
 * Resolves once the bot stands on the ground. mineflayer times a dig once, when it starts, and five times slower
 * off the ground (as vanilla digs), while the server expects the on-ground time: a dig begun in the moment a walk
 * ended on a slope, the bot still settling, waited 15 s for a log that takes 3, and a stuck detector cut it short.
 */
function landed({ bot, clock }: BotContext): Promise<void> {
  // In water a body never lands; vanilla and mineflayer time that dig by their own rule.
  return waitFor(
    clock,
    LANDING_WAIT_MS,
    () => bot.entity.onGround || (bot.entity as { isInWater?: boolean }).isInWater === true,
    (check) => {
      bot.on('physicsTick', check);
      return () => bot.removeListener('physicsTick', check);
    },
  ).catch(() => undefined);
}
