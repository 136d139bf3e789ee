import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import { PLAYER_EYE_HEIGHT, eyesInWater, isWaterFilled } from '../breath-rules.js';

/**
 * Keeps an idle bot in water afloat, as a player holds jump: a body in water with no input sinks (slowly, but to the
 * floor), and a bot whose walk failed in water it cannot leave would lie there and drown. While pathfinder walks, it
 * holds jump in water itself; at every other time (no step running, a dig or a craft, after a failed or stopped walk)
 * this holds jump whenever the bot is in water with its eyes under the surface or its feet off the floor, so it rises
 * and bobs at the surface breathing, and lets go once it stands in water shallow enough to breathe or leaves it.
 * A move command (an unstuck jump or step) may hold jump too: it lets go at its end, and this takes over on the next
 * tick. Returns a function that stops it.
 */
export function keepAfloat(bot: Bot): () => void {
  let holding = false;
  const onTick = () => {
    if (bot.pathfinder?.isMoving()) {
      holding = false;
      return;
    }
    const entity = bot.entity as { isInWater?: boolean; onGround: boolean } | undefined;
    const afloat = entity?.isInWater === true && (!entity.onGround || eyesUnderWater(bot));
    if (afloat && !bot.getControlState('jump')) bot.setControlState('jump', true);
    else if (!afloat && holding) bot.setControlState('jump', false);
    holding = afloat;
  };
  bot.on('physicsTick', onTick);
  return () => bot.removeListener('physicsTick', onTick);
}

/** Whether the bot's eyes are under water, by the breath rules the server drowns by (src/world/breath-rules.ts). */
export function eyesUnderWater(bot: Bot): boolean {
  const { x, y, z } = bot.entity.position;
  const eyeY = y + PLAYER_EYE_HEIGHT;
  const cell = new Vec3(Math.floor(x), Math.floor(eyeY), Math.floor(z));
  const eyes = bot.blockAt(cell);
  if (!eyes || !isWaterFilled(eyes.name)) return false;
  const above = bot.blockAt(cell.offset(0, 1, 0));
  const level = Number(eyes.getProperties().level ?? 0);
  return eyesInWater(eyes.name, level, above !== null && isWaterFilled(above.name), eyeY, cell.y);
}
