import type { Bot } from 'mineflayer';
import type { Block } from 'prismarine-block';
import type { Vec3 } from 'vec3';
import { type Vec3Like, WorldError, blockKey } from '../../contracts/world.js';
import type { BotContext } from './bot-context.js';
import type { Command } from './command-runner.js';
import { confirmBlock } from './confirm.js';
import { placementProblem } from './placement.js';

/** mineflayer's placeBlock with options; its typings leave it out. */
type PlacingBot = Bot & {
  _placeBlockWithOptions(
    reference: Block,
    face: Vec3,
    options: { swingArm: 'right'; forceLook: boolean },
  ): Promise<void>;
};

export function startPlace(context: BotContext, position: Vec3Like, item: string): Command {
  const { bot } = context;
  const problem = placementProblem(bot, position, item);
  if (typeof problem === 'string') throw new WorldError('precondition_missing', problem);
  const { reference, face, itemId } = problem;
  const done = (async () => {
    await bot.equip(itemId, 'hand');
    // A forced look turns the head at once: the default smooth turn costs up
    // to a second per block when building around the bot.
    await (bot as PlacingBot)._placeBlockWithOptions(reference, face, { swingArm: 'right', forceLook: true });
    await confirmBlock(context, position, (name) => name === item, `${item} at ${blockKey(position)}`);
  })();
  return { done, cancel: () => {} };
}
