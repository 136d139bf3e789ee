import type { Bot } from 'mineflayer';
import { loadMineflayer } from './load-mineflayer.js';

/** Loads pathfinder into the bot (once) with the movement rules verbtree navigation relies on. */
export function setUpPathfinder(bot: Bot, searchRadius: number): void {
  const { pathfinder } = loadMineflayer();
  if (!bot.pathfinder) bot.loadPlugin(pathfinder.pathfinder);
  const movements = new pathfinder.Movements(bot);
  // Navigation walks; digging and building are separate, verified steps, and
  // scaffolding would spend blocks the plan needs (cobblestone for a stone axe).
  movements.canDig = false;
  movements.allow1by1towers = false;
  movements.scafoldingBlocks = [];
  // Players pass through each other; pathfinder's entity weighting instead
  // found no path at all for bots crowded at a shared spawn (50 bots).
  movements.allowEntityDetection = false;
  bot.pathfinder.setMovements(movements);
  bot.pathfinder.thinkTimeout = 3000;
  (bot.pathfinder as unknown as { searchRadius: number }).searchRadius = searchRadius;
}
