import { type Vec3Like, WorldError, blockKey } from '../../contracts/world.js';
import { type BotContext, toVec3 } from './bot-context.js';
import type { Command } from './command-runner.js';
import { confirmBlock } from './confirm.js';

export function startDig(context: BotContext, position: Vec3Like): Command {
  const { bot } = context;
  const block = bot.blockAt(toVec3(position));
  const where = blockKey(position);
  if (!block) throw new WorldError('precondition_missing', `cannot dig ${where}: that chunk is not loaded; move closer first`);
  if (block.name === 'air' || block.name === 'cave_air') throw new WorldError('precondition_missing', `cannot dig ${where}: there is no block (air)`);
  if (!block.diggable) throw new WorldError('precondition_missing', `cannot dig ${block.name} at ${where}: no tool can break it`);
  if (!bot.canDigBlock(block)) throw new WorldError('precondition_missing', `cannot dig ${block.name} at ${where}: out of reach; navigate within 4 blocks first`);
  const done = bot.dig(block, true).then(() => confirmBlock(context, position, (name) => name !== block.name, `${block.name} at ${where} to be gone`));
  return { done, cancel: () => bot.stopDigging() };
}
