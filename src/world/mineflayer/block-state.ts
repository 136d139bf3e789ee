import type { BlockState, Vec3Like } from '../../contracts/world.js';
import { blockState, toggledProperty } from '../activation.js';
import { type BotContext, toVec3 } from './bot-context.js';

/**
 * A block with the state using it changes, as the server holds it where it can be asked, else as the client sees it.
 */
export async function stateAt(context: BotContext, position: Vec3Like): Promise<BlockState> {
  const truth = context.serverTruth;
  if (truth?.blockStateAt) return truth.blockStateAt(position);
  const block = context.bot.blockAt(toVec3(position));
  if (!block) return blockState('unknown');
  const key = toggledProperty(block.name);
  const properties = block.getProperties() as Record<string, unknown>;
  return blockState(block.name, key ? { [key]: properties[key] === true } : {});
}
