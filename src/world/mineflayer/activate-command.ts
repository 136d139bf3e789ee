import { type BlockState, blockKey, type Vec3Like, WorldError } from '../../contracts/world.js';
import { ACTIVATE_REACH, activationOf, checkActivateItem, sameBlockState } from '../activation.js';
import { EYE_HEIGHT } from '../reach.js';
import { stateAt } from './block-state.js';
import { type BotContext, toVec3 } from './bot-context.js';
import type { Command } from './command-runner.js';
import { confirmRead } from './confirm.js';
import { inventoryCounts } from './observe.js';

/**
 * Right-clicks the block (mineflayer's activateBlock), holding `item` when given, after the rules of
 * activation.ts say what it will do; resolves once the server holds the block's new state.
 */
export function startActivate(context: BotContext, position: Vec3Like, item: string | undefined): Command {
  const { bot } = context;
  const at = blockKey(position);
  const block = bot.blockAt(toVec3(position));
  if (!block)
    throw new WorldError('precondition_missing', `activate: the block at ${at} is not loaded; walk closer first`);
  checkActivateItem(item, item === undefined ? 1 : (inventoryCounts(bot)[item] ?? 0));
  const distance = bot.entity.position.offset(0, EYE_HEIGHT, 0).distanceTo(block.position.offset(0.5, 0.5, 0.5));
  const done = (async () => {
    const before = await stateAt(context, position);
    const above = context.serverTruth
      ? await context.serverTruth.blockAt({ ...position, y: position.y + 1 })
      : (bot.blockAt(toVec3(position).offset(0, 1, 0))?.name ?? null);
    const after = activationOf(at, before, item ?? bot.heldItem?.name ?? null, above);
    if (distance > ACTIVATE_REACH)
      throw new WorldError(
        'precondition_missing',
        `activate: ${at} is ${distance.toFixed(1)} blocks away, reach is ${ACTIVATE_REACH}; walk closer first`,
      );
    if (item !== undefined) await bot.equip(bot.registry.itemsByName[item]!.id, 'hand');
    await bot.activateBlock(block);
    const shown = (state: BlockState) =>
      `${state.name}${Object.entries(state.properties)
        .map(([key, value]) => ` ${key}=${value}`)
        .join('')}`;
    await confirmRead(
      context,
      () => stateAt(context, position),
      (state) => sameBlockState(state, after),
      (last) =>
        `activate: expected the block at ${at} to become ${shown(after)}, the ${context.serverTruth ? 'server' : 'client'} shows ${shown(last)}`,
    );
  })();
  return { done, cancel: () => {} };
}
